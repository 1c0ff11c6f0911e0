/**
 * Multi-database mode (issue 20, SPEC §2.5, docs/scale-out.md "One database per domain"): each registered domain but `global`
 * keeps its chunks, vectors, tombstones, graph rows and change sequence in its own libSQL database; everything else
 * (audit chain, review queue, UMP records, domain registry, auth, workflow, …) stays in the global database, which
 * also holds the `global` domain's rows. Ids stay unique across databases: a domain with shard ordinal k allocates
 * chunk, entity, relation and tombstone ids from k × 2^40, so the id alone names its database. Rows moved by
 * `cairn migrate multi-db` keep their old (smaller) ids; their databases are marked "legacy" and probed too.
 * A write that touches one domain opens the domain's transaction, then the global one (`writeIn`): the global one
 * (the audit row) commits first, so a crash between the two leaves an audited change missing, never an unaudited
 * change present; `check-consistency` reports either. File paths and deletion come from the runtime (`DomainFiles`).
 */
import { MemoryError } from "../core/errors.ts";
import type { Db, DomainRouter, Exec } from "./db.ts";

/** Ids per domain database (2^40: a trillion per domain, 8,191 domains within 2^53). */
export const SHARD_SPAN = 2 ** 40;
const MAX_SHARD = 8191;
const ID_TABLES = ["chunks", "entities", "relations", "tombstones"] as const;

/** Where domain databases live; provided by the runtime (src/runtime/domain-files.ts). */
export interface DomainFiles {
  /** Opens (creating and migrating) the domain's database. */
  open(domain: string): Promise<Db>;
  /** Deletes the domain's database files (after its handle is closed). */
  remove(domain: string): Promise<void>;
}

/** An open write transaction split across the global database and one domain database. */
interface SplitTx extends Exec {
  readonly local: Exec;
}

/** The executor for per-domain tables: the domain's transaction inside `writeIn`, else `ex` itself. */
export function localOf(ex: Exec): Exec {
  return (ex as Partial<SplitTx>).local ?? ex;
}

/** Runs `fn` in one write transaction on the domain's database and one on the global database (see module comment). */
export async function writeIn<T>(db: Db, domain: string, fn: (tx: Exec) => Promise<T>): Promise<T> {
  // A domain another process registered after this one booted is opened first, never written to the global file.
  if (db.router !== undefined && !db.router.has(domain)) await db.router.refresh();
  const d = db.router?.forDomain(domain);
  if (d === undefined || d === db) return db.write(fn);
  return d.write((local) => db.write((global) => {
    const split: SplitTx = { execute: (s) => global.execute(s), local };
    return fn(split);
  }));
}

/** Every database of the store (one in single-database mode). */
export function dbsOf(db: Db): Db[] {
  return db.router?.all() ?? [db];
}

/** The database holding `domain`'s rows. */
export function dbOfDomain(db: Db, domain: string): Db {
  return db.router?.forDomain(domain) ?? db;
}

/** Ids grouped by the databases that may hold them. */
export function groupIds(db: Db, ids: readonly number[]): [Db, number[]][] {
  return db.router?.groupIds(ids) ?? [[db, [...ids]]];
}

/**
 * An executor over several databases whose answer is the union of the rows each returns and the sum of the rows
 * each changed. Only for set-oriented statements where that union is the answer (rows by id, owner, name or
 * reference; deletes and updates by id; existence checks): not for counts, pages or inserts.
 */
function unionExec(execs: () => readonly Exec[]): Exec {
  return {
    async execute(stmt) {
      const sets = [];
      for (const ex of execs()) sets.push(await ex.execute(stmt));
      const first = sets[0];
      const rows = sets.flatMap((s) => [...s.rows]);
      const rowsAffected = sets.reduce((n, s) => n + s.rowsAffected, 0);
      return { ...first, rows, rowsAffected, lastInsertRowid: undefined, toJSON: () => ({ columns: first.columns, rows }) } as typeof first;
    },
  };
}

/** A read-only union executor over every database (read at each call: domains created after boot count too). */
export function unionReader(db: Db): Exec {
  if (db.router === undefined) return db.client;
  return unionExec(() => dbsOf(db).map((d) => d.client));
}

/**
 * A read executor for code that reads global rows and per-domain rows by id or reference (a UMP record and its
 * chunk, a claim's evidence, a KB revision's chunk): global tables read the global database, per-domain tables (read
 * through `localOf`) the union of every database. The union rules apply: not for counts, pages or LIMIT reads.
 */
export function routedReader(db: Db): Exec {
  return withDomainReads(db, db.client);
}

/**
 * `ex` (a global transaction) for global tables, with per-domain reads (`localOf`) on the union of every database:
 * checks inside a global write that a chunk exists, wherever it lives (committed rows; the same union rules apply).
 */
export function withDomainReads(db: Db, ex: Exec): Exec {
  if (db.router === undefined) return ex;
  const split: SplitTx = { execute: (s) => ex.execute(s), local: unionReader(db) };
  return split;
}

/**
 * One write over every database (erasure: purge and DSAR must reach every domain). Each domain's transaction opens
 * in shard order, then the global one, which commits first (see the module comment); per-domain statements run on
 * the union of all of them (`unionExec`), global ones on the global transaction.
 */
export function writeAcross<T>(db: Db, fn: (tx: Exec) => Promise<T>): Promise<T> {
  const shards = dbsOf(db).slice(1);
  if (shards.length === 0) return db.write(fn);
  const open = (i: number, txs: Exec[]): Promise<T> =>
    i < shards.length
      ? shards[i].write((tx) => open(i + 1, [...txs, tx]))
      : db.write((global) => {
        const all = [global, ...txs];
        const split: SplitTx = { execute: (s) => global.execute(s), local: unionExec(() => all) };
        return fn(split);
      });
  return open(0, []);
}

/** The router over the global database and one database per registered domain. */
export class DomainDbs implements DomainRouter {
  private readonly byName = new Map<string, { shard: number; db: Db }>();
  private readonly byShard = new Map<number, Db>();
  private readonly legacy = new Set<Db>();
  private readonly opening = new Map<string, Promise<Db>>();

  private constructor(readonly global: Db, private readonly files: DomainFiles) {}

  /**
   * Opens every registered domain's database. A domain without a shard gets one now, unless the global database
   * still holds its rows (a single-file store): then boot is refused until `cairn migrate multi-db` has moved them.
   */
  static async open(global: Db, files: DomainFiles, opts: { allowUnmoved?: boolean } = {}): Promise<DomainDbs> {
    const r = new DomainDbs(global, files);
    const rows = (await global.execute("SELECT name, shard FROM domains ORDER BY name")).rows;
    for (const row of rows) {
      const name = String(row.name);
      if (name === "global") continue;
      // Checked whatever the shard says: a move interrupted after the shard was set still has rows here.
      if (!opts.allowUnmoved && (await holdsRows(global, name))) {
        await r.close();
        throw new MemoryError("boot_refused", `domain '${name}' is still in the single database: run \`cairn migrate multi-db\` first`);
      }
      if (row.shard === null) continue;
      await r.attach(name, Number(row.shard));
    }
    global.router = r;
    return r;
  }

  /** Gives a registered domain its database (idempotent); returns it. */
  async ensure(name: string): Promise<Db> {
    const have = this.byName.get(name);
    if (have !== undefined) return have.db;
    const shard = await this.global.write(async (tx) => {
      const rs = await tx.execute({ sql: "SELECT shard FROM domains WHERE name = ?", args: [name] });
      if (rs.rows.length === 0) throw new MemoryError("not_found", `domain '${name}' not found`);
      if (rs.rows[0].shard !== null) return Number(rs.rows[0].shard);
      const next = Number((await tx.execute("SELECT COALESCE(MAX(shard), 0) + 1 AS n FROM domains")).rows[0].n);
      if (next > MAX_SHARD) throw new MemoryError("capacity_exceeded", `at most ${MAX_SHARD} domain databases`, undefined, 507);
      await tx.execute({ sql: "UPDATE domains SET shard = ? WHERE name = ?", args: [next, name] });
      return next;
    });
    return await this.attach(name, shard);
  }

  /** Closes and deletes a domain's database (the caller has removed its registry row and global rows). */
  async remove(name: string): Promise<void> {
    const have = this.byName.get(name);
    if (have !== undefined) {
      this.byName.delete(name);
      this.byShard.delete(have.shard);
      this.legacy.delete(have.db);
      await have.db.checkpoint().catch(() => undefined);
      have.db.close();
    }
    await this.files.remove(name);
  }

  forDomain(domain: string): Db {
    // An unregistered name has no database of its own: its rows (if a door lets any through) stay global.
    return this.byName.get(domain)?.db ?? this.global;
  }

  /** True when the domain has its own database (`global` has the global one). */
  has(domain: string): boolean {
    return domain === "global" || this.byName.has(domain);
  }

  /**
   * Opens the databases of domains another process (the CLI, a second server on the same files) gave a database
   * after this one booted: one read of the registry. Returns the databases opened now.
   */
  async refresh(): Promise<Db[]> {
    // Only handles open before the read are compared with it (one opened meanwhile here is newer than the read).
    const before = [...this.byName];
    const rows = (await this.global.execute("SELECT name, shard FROM domains WHERE shard > 0")).rows;
    // A domain dropped by another process: its handle is closed here (that process deleted the file).
    const names = new Set(rows.map((r) => String(r.name)));
    for (const [name, have] of before) {
      if (names.has(name) || this.byName.get(name) !== have) continue;
      this.byName.delete(name);
      this.byShard.delete(have.shard);
      this.legacy.delete(have.db);
      have.db.close();
    }
    const added: Db[] = [];
    for (const row of rows) {
      const name = String(row.name);
      if (!this.byName.has(name)) added.push(await this.attach(name, Number(row.shard)));
    }
    return added;
  }

  groupIds(ids: readonly number[]): [Db, number[]][] {
    const groups = new Map<Db, number[]>();
    const add = (db: Db, id: number) => {
      const g = groups.get(db);
      if (g === undefined) groups.set(db, [id]);
      else g.push(id);
    };
    for (const id of ids) {
      const shard = Math.floor(id / SHARD_SPAN);
      if (shard > 0) {
        const db = this.byShard.get(shard);
        if (db !== undefined) add(db, id);
        continue;
      }
      add(this.global, id);
      for (const db of this.legacy) add(db, id);
    }
    return [...groups];
  }

  all(): Db[] {
    return [this.global, ...[...this.byShard.entries()].sort((a, b) => a[0] - b[0]).map(([, db]) => db)];
  }

  /** Closes every domain database (not the global one). */
  async close(): Promise<void> {
    for (const { db } of this.byName.values()) {
      await db.checkpoint().catch(() => undefined);
      db.close();
    }
    this.byName.clear();
    this.byShard.clear();
  }

  // One open per name, even when a refresh and an `ensure` race for it.
  private attach(name: string, shard: number): Promise<Db> {
    const have = this.byName.get(name);
    if (have !== undefined) return Promise.resolve(have.db);
    let p = this.opening.get(name);
    if (p === undefined) {
      p = this.open1(name, shard).finally(() => this.opening.delete(name));
      this.opening.set(name, p);
    }
    return p;
  }

  private async open1(name: string, shard: number): Promise<Db> {
    const db = await this.files.open(name);
    await seedIdBase(db, shard * SHARD_SPAN);
    this.byName.set(name, { shard, db });
    this.byShard.set(shard, db);
    await this.probeLegacy(db);
    return db;
  }

  /** Re-probes a domain database for moved (pre-shard) ids, after `cairn migrate multi-db` copied rows into it. */
  async noteMoved(name: string): Promise<void> {
    const have = this.byName.get(name);
    if (have !== undefined) await this.probeLegacy(have.db);
  }

  // Moved rows keep their single-file ids (below the shard range): such a database is probed for every small id.
  private async probeLegacy(db: Db): Promise<void> {
    const low = await db.execute({
      sql: "SELECT 1 FROM chunks WHERE id < ?1 UNION ALL SELECT 1 FROM tombstones WHERE chunk_id < ?1 LIMIT 1", args: [SHARD_SPAN],
    });
    if (low.rows.length > 0) this.legacy.add(db);
  }
}

// A fresh domain database allocates ids from its range; an existing one keeps its sequence (never lowered).
async function seedIdBase(db: Db, base: number): Promise<void> {
  await db.write(async (tx) => {
    for (const t of ID_TABLES) {
      await tx.execute({ sql: "INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)", args: [t, base, t] });
      await tx.execute({ sql: "UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?", args: [base, t, base] });
    }
  });
}

async function holdsRows(global: Db, name: string): Promise<boolean> {
  const rs = await global.execute({ sql: "SELECT 1 FROM chunks WHERE domain = ? UNION ALL SELECT 1 FROM entities WHERE domain = ? LIMIT 1", args: [name, name] });
  return rs.rows.length > 0;
}
