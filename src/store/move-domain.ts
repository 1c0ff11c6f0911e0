/**
 * The SQL of `cairn migrate multi-db` (issue 20, docs/scale-out.md "One database per domain"): one domain's per-domain rows
 * (chunks, vectors, tombstones, entities, relations, entity–chunk links) copied from the single file into the
 * domain's own database with their ids, then deleted from the single file. The copy replaces rows by key, so a
 * copy interrupted before the delete committed is simply redone; the delete runs only once the copy is counted
 * complete (`src/domains/migrate-multi-db.ts` orders the two commits).
 */
import type { InValue } from "@libsql/client";
import type { Exec } from "./db.ts";

/** Rows per moved table. */
export interface MoveCounts {
  chunks: number;
  vectors: number;
  tombstones: number;
  entities: number;
  relations: number;
  entity_chunks: number;
}

interface TableSpec {
  name: keyof MoveCounts;
  table: string;
  /** The rows of the domain (one `?`: the domain name). */
  where: string;
  /** The key columns (paging and the redo's replace). */
  key: string[];
}

// Entities before the relations and links naming them; chunks before their vectors (insert order).
const SPECS: TableSpec[] = [
  { name: "entities", table: "entities", where: "domain = ?", key: ["id"] },
  { name: "chunks", table: "chunks", where: "domain = ?", key: ["id"] },
  { name: "vectors", table: "chunk_vectors", where: "chunk_id IN (SELECT id FROM chunks WHERE domain = ?1)", key: ["chunk_id"] },
  { name: "tombstones", table: "tombstones", where: "domain = ?", key: ["id"] },
  { name: "relations", table: "relations", where: "domain = ?", key: ["id"] },
  {
    name: "entity_chunks", table: "entity_chunks",
    where: "entity_id IN (SELECT id FROM entities WHERE domain = ?1) OR chunk_id IN (SELECT id FROM chunks WHERE domain = ?1)",
    key: ["entity_id", "chunk_id"],
  },
];
const PAGE = 200;

async function hasTable(ex: Exec, name: string): Promise<boolean> {
  return (await ex.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", args: [name] })).rows.length > 0;
}

async function columnsOf(ex: Exec, table: string): Promise<string[]> {
  return (await ex.execute(`PRAGMA table_info(${table})`)).rows.map((r) => String(r.name));
}

/** The domain's per-domain rows in a database (what the move copies from the single file). */
export async function countDomainRows(ex: Exec, domain: string): Promise<MoveCounts> {
  const out = { chunks: 0, vectors: 0, tombstones: 0, entities: 0, relations: 0, entity_chunks: 0 };
  for (const s of SPECS) {
    if (!(await hasTable(ex, s.table))) continue;
    out[s.name] = Number((await ex.execute({ sql: `SELECT COUNT(*) AS n FROM ${s.table} WHERE ${s.where.replaceAll("?1", "?")}`, args: argsFor(s, domain) })).rows[0].n);
  }
  return out;
}

/** Copies the domain's rows from `src` into `dst` (an open transaction), keeping ids; a row already there is replaced. */
export async function copyDomainRows(src: Exec, dst: Exec, domain: string): Promise<MoveCounts> {
  const out = { chunks: 0, vectors: 0, tombstones: 0, entities: 0, relations: 0, entity_chunks: 0 };
  for (const s of SPECS) {
    if (!(await hasTable(src, s.table))) continue;
    if (!(await hasTable(dst, s.table))) throw new Error(`The domain database has no ${s.table} table`);
    const cols = await columnsOf(src, s.table);
    const keyIdx = s.key.map((k) => cols.indexOf(k));
    let after: InValue[] | undefined;
    for (;;) {
      const page = after === undefined ? "" : ` AND (${s.key.join(", ")}) > (${s.key.map(() => "?").join(", ")})`;
      const rs = await src.execute({
        sql: `SELECT ${cols.join(", ")} FROM ${s.table} WHERE (${s.where.replaceAll("?1", "?")})${page} ORDER BY ${s.key.join(", ")} LIMIT ${PAGE}`,
        args: [...argsFor(s, domain), ...(after ?? [])],
      });
      if (rs.rows.length === 0) break;
      const rows = rs.rows.map((r) => cols.map((_, i) => r[i] as InValue));
      // Redo: drop what an interrupted copy left under these keys (a delete fires the same triggers a user delete would).
      const tuple = `(${s.key.map(() => "?").join(", ")})`;
      await dst.execute({
        sql: `DELETE FROM ${s.table} WHERE (${s.key.join(", ")}) IN (VALUES ${rows.map(() => tuple).join(", ")})`,
        args: rows.flatMap((r) => keyIdx.map((i) => r[i])),
      });
      await dst.execute({
        sql: `INSERT INTO ${s.table} (${cols.join(", ")}) VALUES ${rows.map(() => `(${cols.map(() => "?").join(", ")})`).join(", ")}`,
        args: rows.flat(),
      });
      out[s.name] += rows.length;
      after = keyIdx.map((i) => rows[rows.length - 1][i]);
      if (rows.length < PAGE) break;
    }
  }
  return out;
}

/** Deletes the domain's per-domain rows from a database (the single file, once the copy is complete). */
export async function deleteDomainRows(ex: Exec, domain: string): Promise<void> {
  // Links and vectors first: their `where` reads the chunks and entities about to go.
  for (const s of [...SPECS].reverse()) {
    if (!(await hasTable(ex, s.table))) continue;
    await ex.execute({ sql: `DELETE FROM ${s.table} WHERE ${s.where.replaceAll("?1", "?")}`, args: argsFor(s, domain) });
  }
}

/** Registered domains other than `global` that still have rows in this database, in name order. */
export async function domainsWithRows(ex: Exec): Promise<string[]> {
  const rs = await ex.execute(`SELECT name FROM domains d WHERE name <> 'global' AND (
    EXISTS (SELECT 1 FROM chunks WHERE domain = d.name) OR EXISTS (SELECT 1 FROM entities WHERE domain = d.name)
    OR EXISTS (SELECT 1 FROM relations WHERE domain = d.name) OR EXISTS (SELECT 1 FROM tombstones WHERE domain = d.name)) ORDER BY name`);
  return rs.rows.map((r) => String(r.name));
}

/** A domain that has its own database already (multi-database mode), if any: a single-database boot must refuse. */
export async function firstShardedDomain(ex: Exec): Promise<string | undefined> {
  const rs = await ex.execute("SELECT name FROM domains WHERE shard > 0 ORDER BY shard LIMIT 1");
  return rs.rows.length ? String(rs.rows[0].name) : undefined;
}

// Each `?` (or every `?1`) is the domain name.
function argsFor(s: TableSpec, domain: string): InValue[] {
  return s.where.includes("?1") ? Array(s.where.split("?1").length - 1).fill(domain) : [domain];
}

/** The vector table the single file holds (the domain databases get the same), if any. */
export async function storedVectorSpec(ex: Exec): Promise<{ id: string; dim: number } | undefined> {
  const rs = await ex.execute(`SELECT (SELECT value FROM store_meta WHERE key = 'embed_model_id') AS id, (SELECT value FROM store_meta WHERE key = 'embed_dim') AS dim,
    EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vectors') AS has`);
  const r = rs.rows[0];
  return Number(r.has) && r.id !== null && r.dim !== null ? { id: String(r.id), dim: Number(r.dim) } : undefined;
}
