/**
 * The database handle: a libSQL client plus a serialised write-transaction
 * helper. Every multi-row write goes through `write()` so it is one
 * transaction (STYLE rule 10); writes are serialised in-process so a local
 * file never answers SQLITE_BUSY to our own concurrent requests.
 */
import type { Client, InStatement, ResultSet, Transaction } from "@libsql/client";

/** Anything that can execute a statement: the client or an open transaction. */
/** The busy timeout of a local connection (`PRAGMA busy_timeout`, set at open). */
export const BUSY_TIMEOUT_MS = 5000;
/** The busy wait of one WAL checkpoint try (`Db.checkpoint`). */
const CHECKPOINT_BUSY_MS = 100;

export interface Exec {
  execute(stmt: InStatement): Promise<ResultSet>;
}

/**
 * Multi-database mode (issue 20, SPEC §2.5): which database holds a domain's rows or an id. Declared here so the
 * handle carries it without an import cycle; `DomainDbs` (src/store/domain-dbs.ts) implements it.
 */
export interface DomainRouter {
  /** The database holding `domain`'s chunks, vectors, graph rows and tombstones. */
  forDomain(domain: string): Db;
  /** The databases that may hold these ids (one per id range; ids from before the move may be in several). */
  groupIds(ids: readonly number[]): [Db, number[]][];
  /** Every database: the global one first, then one per domain in shard order. */
  all(): Db[];
  /** True when the domain's database is open here. */
  has(domain: string): boolean;
  /** Opens the databases of domains registered by another process since (one registry read). */
  refresh(): Promise<Db[]>;
}

/** A libSQL database with a serialised write transaction helper. */
export class Db {
  readonly client: Client;
  /** True for a local file database, false for a remote libSQL server. */
  readonly local: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  /** Optional observer of the write slot (`/metrics` lock-wait and busy-error series). */
  observer?: { lockWait(ms: number): void; busy(): void };
  /**
   * Connection settings re-applied around every write (issue 23 §4, §5). The client pools connections and a
   * PRAGMA reaches only the one it ran on: `before` runs just ahead of the transaction (on the connection the
   * transaction then takes, best effort), `inTx` inside it (secure_delete may be set there, synchronous not).
   */
  pragmas: { before: string[]; inTx: string[] } = { before: [], inTx: [] };

  /** Set on the global database in multi-database mode (`CAIRN_MULTI_DB=true`). */
  router?: DomainRouter;

  /**
   * The running request's deadline at the write slot (SPEC §8, src/core/deadline.ts): `enter` when the slot is
   * reached (a write whose request already expired is not begun), `commit` just before COMMIT (expired work rolls
   * back; committed work can no longer be answered with a deadline error). Set by the composition root.
   */
  gate?: { enter(): void; commit(): void };

  constructor(client: Client, local: boolean) {
    this.client = client;
    this.local = local;
  }

  /**
   * Folds the WAL into the database file and truncates it to zero bytes (issue 23 §4: erased text must not
   * stay in `-wal`). Queued behind the writes; a reader holding a snapshot makes SQLite report busy, so it retries.
   */
  checkpoint(): Promise<boolean> {
    if (!this.local) return Promise.resolve(true);
    const run = async (): Promise<boolean> => {
      // TRUNCATE waits in the busy handler for readers on an older snapshot: with the connection's 5 s timeout, ten
      // tries held a purge's reply (and every write queued behind it) for 50 s, past the 30 s request deadline, though
      // the erasure had committed (issue 27). Wait briefly per try instead; the next removal checkpoints again.
      await this.client.execute(`PRAGMA busy_timeout = ${CHECKPOINT_BUSY_MS}`);
      try {
        for (let attempt = 0; attempt < 10; attempt++) {
          const rs = await this.client.execute("PRAGMA wal_checkpoint(TRUNCATE)");
          if (Number(rs.rows[0]?.[0] ?? 0) === 0) return true;
          await new Promise((r) => setTimeout(r, 20));
        }
        return false;
      } finally {
        await this.client.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  /** Runs `fn` inside one write transaction; rolls back on any throw. */
  write<T>(fn: (tx: Exec) => Promise<T>): Promise<T> {
    const queued = performance.now();
    const run = async (): Promise<T> => {
      this.gate?.enter();
      let tx: Transaction | undefined;
      // Issue 20: another node on the same libSQL server may hold the write lock past the server's busy wait; the
      // begin is retried (nothing ran yet), so the chain head read inside the transaction stays atomic.
      for (let attempt = 0; tx === undefined; attempt++) {
        try {
          for (const sql of this.pragmas.before) await this.client.execute(sql);
          const opened = await this.client.transaction("write");
          // A libSQL server's client sends BEGIN lazily, with the transaction's first statement: run it here, so a
          // BEGIN that finds the write lock busy past the server's wait is retried like a local one (nothing ran yet).
          if (!this.local) await beginNow(opened);
          tx = opened;
        } catch (e) {
          if (isBusy(e)) this.observer?.busy();
          if (!isBusy(e) || attempt >= BEGIN_RETRIES) throw e;
          await new Promise((r) => setTimeout(r, 10 * 2 ** attempt * (1 + Math.random())));
        }
      }
      // Lock wait: queued behind our own writers plus acquiring the database's write lock.
      this.observer?.lockWait(performance.now() - queued);
      try {
        for (const sql of this.pragmas.inTx) await tx.execute(sql);
        const out = await fn(tx);
        this.gate?.commit();
        await tx.commit();
        return out;
      } catch (e) {
        if (isBusy(e)) this.observer?.busy();
        if (!tx.closed) await tx.rollback().catch(() => {});
        throw e;
      } finally {
        tx.close();
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  /** Runs a statement outside any explicit transaction. */
  execute(stmt: InStatement): Promise<ResultSet> {
    return this.client.execute(stmt);
  }

  /** Run by `close()` before the client closes (the prepared read connection, `chunk-reader.ts`). */
  readonly closers: (() => void)[] = [];

  /** Closes the client (and whatever was attached to it). */
  close(): void {
    for (const c of this.closers.splice(0)) {
      try { c(); } catch { /* closing a side connection must not keep the store open */ }
    }
    this.client.close();
  }
}

// Sends the (lazy) BEGIN of a remote transaction; a failed BEGIN closes the transaction, so it is dropped for a retry.
async function beginNow(tx: Transaction): Promise<void> {
  try {
    await tx.execute("SELECT 1");
  } catch (e) {
    try { tx.close(); } catch { /* already closed by the failed BEGIN */ }
    throw e;
  }
}

/** Begin attempts after the first when the write lock stays busy (~0.6 s of backoff in all). */
const BEGIN_RETRIES = 6;

// SQLITE_BUSY (and its extended codes) from a local file or a remote server.
function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return (typeof code === "string" && code.startsWith("SQLITE_BUSY")) || /SQLITE_BUSY|database is locked/i.test(String((e as Error)?.message ?? ""));
}
