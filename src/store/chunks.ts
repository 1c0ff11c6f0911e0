/**
 * Chunk rows (SPEC §2.1): insert, look up by id or content hash, delete,
 * count. Optional labels read back as absent, never null (SPEC §2.2).
 */
import type { InValue, Row } from "@libsql/client";
import type { Chunk, IngestKind, NewChunk } from "../core/types.ts";
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** The chunk columns every read selects, in this order (`chunk-reader.ts` reads them by position). */
export const CHUNK_COLS = `id, title, content, domain, content_hash, source, origin, origin_source, memory_kind, lawful_basis,
  region, confidence, assertion_kind, expires_at, flagged, authority, meta, created_at`;

/** Maps a row to a Chunk, dropping nulls. */
export function rowToChunk(r: Row): Chunk {
  const c: Chunk = {
    id: Number(r.id),
    content: String(r.content),
    domain: String(r.domain),
    contentHash: String(r.content_hash),
    source: String(r.source) as IngestKind,
    confidence: Number(r.confidence),
    flagged: Number(r.flagged) === 1,
    createdAt: String(r.created_at),
  };
  const opt = (k: keyof Chunk, v: unknown, f: (x: unknown) => unknown = String) => {
    if (v !== null && v !== undefined) (c as unknown as Record<string, unknown>)[k] = f(v);
  };
  opt("title", r.title);
  opt("origin", r.origin);
  opt("originSource", r.origin_source);
  opt("memoryKind", r.memory_kind);
  opt("lawfulBasis", r.lawful_basis);
  opt("region", r.region);
  opt("assertionKind", r.assertion_kind);
  opt("expiresAt", r.expires_at);
  opt("authority", r.authority, Number);
  opt("meta", r.meta, (x) => JSON.parse(String(x)));
  return c;
}

/** The bound row of a new chunk, column → value, in the table's column order. */
function chunkRow(c: NewChunk, createdAt: string): Record<string, InValue> {
  return {
    title: c.title ?? null, content: c.content, domain: c.domain, content_hash: c.contentHash, source: c.source,
    origin: c.origin ?? null, origin_source: c.originSource ?? null, memory_kind: c.memoryKind ?? null,
    lawful_basis: c.lawfulBasis ?? null, region: c.region ?? null, confidence: c.confidence, assertion_kind: c.assertionKind ?? null,
    expires_at: c.expiresAt ?? null, flagged: c.flagged ? 1 : 0, authority: c.authority ?? null, meta: c.meta ? JSON.stringify(c.meta) : null,
    created_at: createdAt,
  };
}

const INSERT_COLS = Object.keys(chunkRow({ content: "", domain: "", contentHash: "", source: "structured", confidence: 1 } as NewChunk, ""));
const ROW_SLOTS = `(${INSERT_COLS.map(() => "?").join(", ")})`;

/** Inserts a chunk and returns it as stored. */
export async function insertChunk(ex: Exec, c: NewChunk, createdAt: string): Promise<Chunk> {
  ex = localOf(ex);
  return (await insertChunks(ex, [{ chunk: c, createdAt }]))[0];
}

/**
 * Inserts chunks (distinct content hashes), 200 rows per statement, and returns them as stored, in input order.
 * The stored row is exactly what was bound (no column defaults or triggers rewrite it), so each Chunk is built
 * from the bound values and the id RETURNING gave for its content hash (RETURNING's row order is unspecified;
 * content_hash is UNIQUE).
 */
export async function insertChunks(ex: Exec, items: readonly { chunk: NewChunk; createdAt: string }[]): Promise<Chunk[]> {
  ex = localOf(ex);
  const out: Chunk[] = [];
  for (let i = 0; i < items.length; i += 200) {
    const rows = items.slice(i, i + 200).map((it) => chunkRow(it.chunk, it.createdAt));
    const rs = await ex.execute({
      sql: `INSERT INTO chunks (${INSERT_COLS.join(", ")}) VALUES ${rows.map(() => ROW_SLOTS).join(", ")} RETURNING id, content_hash`,
      args: rows.flatMap((r) => INSERT_COLS.map((k) => r[k])),
    });
    const ids = new Map<string, number>();
    for (const r of rs.rows) ids.set(String(r.content_hash), Number(r.id));
    for (const row of rows) {
      const id = ids.get(String(row.content_hash));
      if (id === undefined) throw new Error("libSQL did not return the new chunk's id");
      out.push(rowToChunk({ ...row, id } as unknown as Row));
    }
  }
  return out;
}

/** Finds chunks by content hash, many at once (ingest batches); keyed by hash. */
export async function findChunksByHashes(ex: Exec, hashes: readonly string[]): Promise<Map<string, Chunk>> {
  ex = localOf(ex);
  const out = new Map<string, Chunk>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 900) {
    const part = unique.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE content_hash IN (${part.map(() => "?").join(",")})`, args: part });
    for (const r of rs.rows) {
      const c = rowToChunk(r);
      out.set(c.contentHash, c);
    }
  }
  return out;
}

/** Finds a chunk by its content hash. */
export async function findChunkByHash(ex: Exec, hash: string): Promise<Chunk | undefined> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE content_hash = ?`, args: [hash] });
  return rs.rows.length ? rowToChunk(rs.rows[0]) : undefined;
}

/** Reads one chunk by id. */
export async function getChunk(ex: Exec, id: number): Promise<Chunk | undefined> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE id = ?`, args: [id] });
  return rs.rows.length ? rowToChunk(rs.rows[0]) : undefined;
}

/** Reads many chunks by id (any order). */
export async function getChunks(ex: Exec, ids: number[]): Promise<Chunk[]> {
  ex = localOf(ex);
  const out: Chunk[] = [];
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    const rs = await ex.execute({
      sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE id IN (${part.map(() => "?").join(",")})`,
      args: part,
    });
    for (const r of rs.rows) out.push(rowToChunk(r));
  }
  return out;
}

/** Pages through all chunks in id order (for index rebuilds and export). */
export async function listChunksAfter(ex: Exec, afterId: number, limit: number): Promise<Chunk[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE id > ? ORDER BY id LIMIT ?`,
    args: [afterId, limit],
  });
  return rs.rows.map(rowToChunk);
}

/** Deletes a chunk row; returns true when a row was removed. */
export async function deleteChunkRow(ex: Exec, id: number): Promise<boolean> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "DELETE FROM chunks WHERE id = ?", args: [id] });
  return rs.rowsAffected > 0;
}

/** Counts chunks, optionally in one domain. */
export async function countChunks(ex: Exec, domain?: string): Promise<number> {
  ex = localOf(ex);
  const rs = domain === undefined
    ? await ex.execute("SELECT COUNT(*) AS n FROM chunks")
    : await ex.execute({ sql: "SELECT COUNT(*) AS n FROM chunks WHERE domain = ?", args: [domain] });
  return Number(rs.rows[0].n);
}

/** Chunk ids of one domain (for domain drops). */
export async function chunkIdsInDomain(ex: Exec, domain: string): Promise<number[]> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT id FROM chunks WHERE domain = ?", args: [domain] });
  return rs.rows.map((r) => Number(r.id));
}

/** The labels recall filters on (SPEC §2.1), without the text; `meta` holds only the speaker/owner, date and document labels. */
export type ChunkLabelRow = Pick<Chunk, "id" | "domain" | "source" | "createdAt" | "flagged" | "expiresAt" | "meta">;

/**
 * Labels of chunks with id > `afterId`, in id order — boot reads these when the lexical snapshot is current.
 * One JSON aggregate per page instead of one result row per chunk: at 50k chunks the client's per-row
 * conversion took ~0.65 s of boot, the aggregate ~0.2 s. Of `meta`, only what speaker- and date-aware
 * recall reads (`conversation`, `owner`; issue 24) and the per-document cap reads (`document.id`; issue 36) is carried.
 */
export async function listChunkLabelsAfter(ex: Exec, afterId: number, limit: number): Promise<ChunkLabelRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    // The JSON subtype of `json_extract(meta, '$.conversation')` lives only inside one expression: computed in a
    // subquery it reaches json_array as plain text and came back a string, so boot lost every speaker label
    // (issue 36). Extracted in the same expression as json_array, it is embedded as an object.
    sql: `SELECT json_group_array(json_array(id, domain, source, created_at, flagged, expires_at,
                   CASE WHEN meta IS NULL THEN NULL ELSE json_extract(meta, '$.conversation') END,
                   CASE WHEN meta IS NULL THEN NULL ELSE json_extract(meta, '$.owner') END,
                   CASE WHEN meta IS NULL THEN NULL ELSE json_extract(meta, '$.document.id') END)) AS page
          FROM (SELECT id, domain, source, created_at, flagged, expires_at, meta FROM chunks WHERE id > ? ORDER BY id LIMIT ?)`,
    args: [afterId, limit],
  });
  const page = JSON.parse(String(rs.rows[0]?.page ?? "[]")) as [number, string, string, string, number, string | null, unknown, unknown, unknown][];
  const set = (x: unknown) => x !== null && x !== undefined;
  return page.map(([id, domain, source, createdAt, flagged, expiresAt, conv, owner, doc]) => {
    const l: ChunkLabelRow = { id: Number(id), domain: String(domain), source: source as IngestKind, createdAt: String(createdAt), flagged: Number(flagged) === 1 };
    if (set(expiresAt)) l.expiresAt = String(expiresAt);
    if (set(conv) || set(owner) || set(doc)) {
      l.meta = {};
      if (set(conv)) l.meta.conversation = conv;
      if (set(owner)) l.meta.owner = owner;
      if (set(doc)) l.meta.document = { id: doc };
    }
    return l;
  });
}
