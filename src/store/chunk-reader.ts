/**
 * Chunk fetches on the recall path (issue 25): ONE statement, prepared once
 * and reused for every query. `getChunks` through the client built a new
 * `IN (?,…)` text per call, which libSQL parsed and planned each time, and
 * the client turned each row into an object with one `defineProperty` per
 * column. Here the ids travel as one JSON array (`json_each`), so the SQL text
 * never changes, and rows come back as plain arrays.
 *
 * The statement lives on a second, query-only connection to the same local
 * file (the `libsql` driver that `@libsql/client` itself runs on). In WAL mode
 * a reader sees every committed write; an auto-commit read ends its read
 * transaction when the statement completes, so it never holds back a WAL
 * checkpoint (issue 23 §4: erasure truncates the WAL). A remote server, or a
 * runtime where the driver cannot be opened, falls back to `getChunks`.
 */
import type { Chunk, IngestKind } from "../core/types.ts";
import { CHUNK_COLS, getChunks } from "./chunks.ts";
import type { Db } from "./db.ts";

const FETCH_SQL = `SELECT ${CHUNK_COLS} FROM chunks WHERE id IN (SELECT value FROM json_each(?))`;

interface Prepared { all(...params: unknown[]): unknown[] }
interface ReadConn { exec(sql: string): unknown; prepare(sql: string): { raw(on?: boolean): Prepared }; close(): unknown }

/** The prepared fetch of each open store (absent: fall back to the client). */
const fetchers = new WeakMap<Db, Prepared>();
/** The read connection of each open store (exact vectors are read on it too). */
const readers = new WeakMap<Db, ReadConn>();

const VECTORS_SQL = "SELECT chunk_id, embedding FROM chunk_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))";

/**
 * Opens the read connection of a local store and prepares the fetch; closed with the store. Best effort:
 * any failure leaves the client path in place.
 */
export async function attachChunkReader(db: Db, path: string): Promise<boolean> {
  try {
    // A computed specifier: runtimes and bundlers that lack the driver resolve nothing ahead of time.
    const driver = "libsql";
    const { default: Database } = await import(driver) as { default: new (path: string) => ReadConn };
    const conn = new Database(path);
    conn.exec("PRAGMA busy_timeout = 5000");
    conn.exec("PRAGMA query_only = 1");
    // A small page cache: the main connection keeps the hot pages; this one reads a few rows per query.
    conn.exec("PRAGMA cache_size = -512");
    fetchers.set(db, conn.prepare(FETCH_SQL).raw(true));
    readers.set(db, conn);
    db.closers.push(() => {
      fetchers.delete(db);
      readers.delete(db);
      conn.close();
    });
    return true;
  } catch {
    return false;
  }
}

/** True when the store's fetches go through the prepared statement (a local file on a runtime with the driver). */
export function chunkReaderAttached(db: Db): boolean {
  return fetchers.has(db);
}

/**
 * Issue 25: a synchronous reader of stored vectors (the F32_BLOB bytes as float32) on the read connection, so
 * the in-memory matrix can hold int8 rows and still return exact scores (src/vector/matrix-index.ts). Undefined
 * without a read connection (a remote server; a runtime without the driver): the matrix then keeps float32 rows.
 * The statement is prepared on first use (the vector table is created after the store opens).
 */
export function exactVectorReader(db: Db): { read(ids: readonly number[]): Map<number, Float32Array> } | undefined {
  const conn = readers.get(db);
  if (conn === undefined) return undefined;
  let stmt: Prepared | undefined;
  return {
    read(ids) {
      const out = new Map<number, Float32Array>();
      if (ids.length === 0 || !readers.has(db)) return out;
      stmt ??= conn.prepare(VECTORS_SQL).raw(true);
      for (const [id, blob] of stmt.all(JSON.stringify(ids)) as [number | bigint, Uint8Array | ArrayBuffer][]) {
        const bytes = blob instanceof Uint8Array ? blob : new Uint8Array(blob);
        // A copy into an aligned buffer of its own (a driver's blob may sit at any offset of a shared one).
        const vec = new Float32Array(bytes.byteLength >>> 2);
        new Uint8Array(vec.buffer).set(bytes.subarray(0, vec.byteLength));
        out.set(Number(id), vec);
      }
      return out;
    },
  };
}

/** Reads many chunks by id (any order, unknown ids skipped) through the prepared statement when there is one. */
export async function fetchChunks(db: Db, ids: readonly number[]): Promise<Chunk[]> {
  if (ids.length === 0) return [];
  // Multi-database mode: each id is read from the database its range names (src/store/domain-dbs.ts).
  if (db.router !== undefined) {
    const out: Chunk[] = [];
    for (const [d, part] of db.router.groupIds(ids)) out.push(...(await fetchFrom(d, part)));
    return out;
  }
  return await fetchFrom(db, ids);
}

async function fetchFrom(db: Db, ids: readonly number[]): Promise<Chunk[]> {
  const stmt = fetchers.get(db);
  if (stmt === undefined) return await getChunks(db.client, [...ids]);
  const rows = stmt.all(JSON.stringify(ids)) as unknown[][];
  return rows.map(valuesToChunk);
}

// Positions follow CHUNK_COLS: id, title, content, domain, content_hash, source, origin, origin_source,
// memory_kind, lawful_basis, region, confidence, assertion_kind, expires_at, flagged, authority, meta, created_at.
function valuesToChunk(v: unknown[]): Chunk {
  const c: Chunk = {
    id: Number(v[0]),
    content: String(v[2]),
    domain: String(v[3]),
    contentHash: String(v[4]),
    source: String(v[5]) as IngestKind,
    confidence: Number(v[11]),
    flagged: Number(v[14]) === 1,
    createdAt: String(v[17]),
  };
  if (v[1] != null) c.title = String(v[1]);
  if (v[6] != null) c.origin = String(v[6]) as Chunk["origin"];
  if (v[7] != null) c.originSource = String(v[7]);
  if (v[8] != null) c.memoryKind = String(v[8]) as Chunk["memoryKind"];
  if (v[9] != null) c.lawfulBasis = String(v[9]) as Chunk["lawfulBasis"];
  if (v[10] != null) c.region = String(v[10]);
  if (v[12] != null) c.assertionKind = String(v[12]) as Chunk["assertionKind"];
  if (v[13] != null) c.expiresAt = String(v[13]);
  if (v[15] != null) c.authority = Number(v[15]);
  if (v[16] != null) c.meta = JSON.parse(String(v[16])) as Chunk["meta"];
  return c;
}
