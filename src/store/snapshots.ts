/**
 * Domain snapshot rows (SPEC §4.5 export and import): every table section a
 * domain owns, read in key order a page at a time (`SELECT *`, so columns
 * later migrations add travel too), and written back with new ids. Which
 * rows belong to a domain is decided here, next to the SQL.
 */
import type { InValue } from "@libsql/client";
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** One section of a snapshot: a table and the rows of it a domain owns. */
export interface SectionSpec {
  /** The `t` tag of its NDJSON lines. */
  t: string;
  table: string;
  /** Condition selecting the domain's rows; every `?` is bound to the domain name. */
  where: string;
  /** Keyset columns (paging order). */
  key: string[];
  /** A per-domain table: in multi-database mode its rows are in the domain's own database (read through `localOf`). */
  local?: true;
  /**
   * A global table whose rows belong to the domain through the domain's chunks: the same condition over a list of
   * chunk ids (`%IDS%`), for multi-database mode, where those chunks are in another database than these rows.
   */
  ofChunks?: string;
  /** A second column that must name one of the domain's chunks too (a link between two of its chunks). */
  alsoChunk?: string;
}

const CHUNKS_OF = "(SELECT id FROM chunks WHERE domain = ?)";

/** Sections in dependency order: every id a section refers to is defined by an earlier one. */
export const SECTIONS: readonly SectionSpec[] = [
  { t: "chunk", table: "chunks", where: "domain = ?", key: ["id"], local: true },
  { t: "entity", table: "entities", where: "domain = ?", key: ["id"], local: true },
  { t: "relation", table: "relations", where: "domain = ?", key: ["id"], local: true },
  { t: "entity_chunk", table: "entity_chunks", where: "entity_id IN (SELECT id FROM entities WHERE domain = ?)", key: ["entity_id", "chunk_id"], local: true },
  { t: "proposal", table: "proposals", where: "domain = ?", key: ["id"] },
  { t: "tombstone", table: "tombstones", where: "domain = ?", key: ["id"], local: true },
  {
    t: "link", table: "consolidation_links", where: `from_chunk_id IN ${CHUNKS_OF} AND to_chunk_id IN ${CHUNKS_OF}`, key: ["id"],
    ofChunks: "from_chunk_id IN (%IDS%)", alsoChunk: "to_chunk_id",
  },
  { t: "ump_record", table: "ump_records", where: `chunk_id IN ${CHUNKS_OF}`, key: ["seq"], ofChunks: "chunk_id IN (%IDS%)" },
  {
    t: "ump_feedback", table: "ump_feedback", where: `record_id IN (SELECT id FROM ump_records WHERE chunk_id IN ${CHUNKS_OF})`, key: ["id"],
    ofChunks: "record_id IN (SELECT id FROM ump_records WHERE chunk_id IN (%IDS%))",
  },
  {
    t: "file_source", table: "file_sources", where: `id IN (SELECT source_id FROM file_source_chunks WHERE chunk_id IN ${CHUNKS_OF})`, key: ["id"],
    ofChunks: "id IN (SELECT source_id FROM file_source_chunks WHERE chunk_id IN (%IDS%))",
  },
  { t: "file_source_chunk", table: "file_source_chunks", where: `chunk_id IN ${CHUNKS_OF}`, key: ["source_id", "chunk_id"], ofChunks: "chunk_id IN (%IDS%)" },
];

/** Per-domain tables: in multi-database mode a snapshot import writes them in the domain's database (`localOf`). */
const LOCAL_TABLES = new Set([...SECTIONS.filter((s) => s.local).map((s) => s.table), "chunk_vectors"]);

/** A row as plain column → value. */
export type PlainRow = Record<string, unknown>;

/** A page of a section's rows after the keyset position `after` (undefined: from the start). */
export async function readSection(ex: Exec, s: SectionSpec, domain: string, after: unknown[] | undefined, limit: number): Promise<PlainRow[]> {
  ex = s.local ? localOf(ex) : ex;
  const binds = (s.where.match(/\?/g) ?? []).map(() => domain);
  const keyList = s.key.join(", ");
  const tuple = s.key.length === 1 ? s.key[0] : `(${keyList})`;
  const slots = s.key.length === 1 ? "?" : `(${s.key.map(() => "?").join(", ")})`;
  const rs = await ex.execute({
    sql: `SELECT * FROM ${s.table} WHERE ${s.where}${after ? ` AND ${tuple} > ${slots}` : ""} ORDER BY ${keyList} LIMIT ?`,
    args: [...binds, ...((after ?? []) as InValue[]), limit],
  });
  return rs.rows.map((r) => {
    const o: PlainRow = {};
    for (const c of rs.columns) o[c] = (r as unknown as Record<string, unknown>)[c];
    return o;
  });
}

/**
 * The rows of a chunk-dependent global section (`ofChunks`) for some of the domain's chunks, in key order; `all`
 * holds every chunk id of the domain (for `alsoChunk`). Multi-database mode (docs/scale-out.md).
 */
export async function readSectionOfChunks(ex: Exec, s: SectionSpec, chunkIds: readonly number[], all: ReadonlySet<number>): Promise<PlainRow[]> {
  if (!s.ofChunks || chunkIds.length === 0) return [];
  const rs = await ex.execute({
    sql: `SELECT * FROM ${s.table} WHERE ${s.ofChunks.replace("%IDS%", chunkIds.map(() => "?").join(", "))} ORDER BY ${s.key.join(", ")}`,
    args: [...chunkIds],
  });
  const rows = rs.rows.map((r) => {
    const o: PlainRow = {};
    for (const c of rs.columns) o[c] = (r as unknown as Record<string, unknown>)[c];
    return o;
  });
  return s.alsoChunk ? rows.filter((r) => all.has(Number(r[s.alsoChunk!]))) : rows;
}

/** Vectors of chunks, keyed by chunk id (raw F32 bytes); per-domain rows (`localOf`). */
export async function vectorBytesOf(ex: Exec, chunkIds: readonly number[]): Promise<Map<number, Uint8Array>> {
  ex = localOf(ex);
  const out = new Map<number, Uint8Array>();
  if (chunkIds.length === 0) return out;
  const exists = (await ex.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vectors'")).rows.length > 0;
  if (!exists) return out;
  for (let i = 0; i < chunkIds.length; i += 900) {
    const part = chunkIds.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT chunk_id, embedding FROM chunk_vectors WHERE chunk_id IN (${part.map(() => "?").join(",")})`, args: [...part] });
    for (const r of rs.rows) out.set(Number(r.chunk_id), new Uint8Array(r.embedding as ArrayBuffer));
  }
  return out;
}

/**
 * Inserts rows into `table` (column lists taken from the rows, 100 rows per statement); `returning` names columns
 * to read back (e.g. `id, content_hash`). Throws the driver's error on a constraint failure.
 */
export async function insertPlainRows(ex: Exec, table: string, rows: readonly PlainRow[], returning?: string): Promise<PlainRow[]> {
  if (LOCAL_TABLES.has(table)) ex = localOf(ex);
  const out: PlainRow[] = [];
  if (rows.length === 0) return out;
  const cols = Object.keys(rows[0]);
  if (!cols.every((c) => /^[a-z_][a-z0-9_]*$/.test(c))) throw new Error("invalid column name");
  for (let i = 0; i < rows.length; i += 100) {
    const part = rows.slice(i, i + 100);
    const rs = await ex.execute({
      sql: `INSERT INTO ${table} (${cols.join(", ")}) VALUES ${part.map(() => `(${cols.map(() => "?").join(", ")})`).join(", ")}${returning ? ` RETURNING ${returning}` : ""}`,
      args: part.flatMap((r) => cols.map((c) => (r[c] ?? null) as InValue)),
    });
    if (returning) for (const r of rs.rows) out.push({ ...(r as unknown as PlainRow) });
  }
  return out;
}

/** Content hashes among `hashes` already stored in any domain of this database (`localOf`: a split transaction's domain side). */
export async function storedHashes(ex: Exec, hashes: readonly string[]): Promise<string[]> {
  ex = localOf(ex);
  const out: string[] = [];
  for (let i = 0; i < hashes.length; i += 900) {
    const part = hashes.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT content_hash FROM chunks WHERE content_hash IN (${part.map(() => "?").join(",")})`, args: [...part] });
    for (const r of rs.rows) out.push(String(r.content_hash));
  }
  return out;
}

/** Column names of a table on this server. */
export async function tableColumns(ex: Exec, table: string): Promise<Set<string>> {
  const rs = await ex.execute(`SELECT name FROM pragma_table_info('${table.replace(/[^a-z_]/g, "")}')`);
  return new Set(rs.rows.map((r) => String(r.name)));
}
