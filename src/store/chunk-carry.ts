/**
 * Reads of what other doors stored beside a chunk's text (issue 22 item 2,
 * SPEC §2.8 file binding): the entities linked to the chunk, the current
 * edges it produced and the file sources it came from, so a UMP export can
 * carry them and an import can write them back.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** An entity linked to the chunk, or an endpoint of one of its edges. */
export interface CarriedEntity {
  name: string;
  type?: string;
  /** How the chunk is linked to it: `subject`, `mention`, or absent (an edge endpoint only). */
  link?: "subject" | "mention";
}

/** A current edge the chunk produced. */
export interface CarriedEdge {
  from: string;
  type: string;
  to: string;
  source: string;
  valid_at?: string;
  invalid_at?: string;
}

/** A file source the chunk is a current part of. */
export interface CarriedFile {
  kind: string;
  root: string;
  path: string;
  hash: string;
}

/** Entities and current edges of one chunk, endpoints included, by display name. */
export async function graphOfChunk(ex: Exec, chunkId: number): Promise<{ entities: CarriedEntity[]; edges: CarriedEdge[] }> {
  ex = localOf(ex);
  const linked = await ex.execute({
    sql: `SELECT e.display_name AS n, e.type AS t, l.subject AS s FROM entity_chunks l JOIN entities e ON e.id = l.entity_id
          WHERE l.chunk_id = ? ORDER BY e.id`,
    args: [chunkId],
  });
  const edges = await ex.execute({
    sql: `SELECT f.display_name AS fn, f.type AS ft, t.display_name AS tn, t.type AS tt, r.type, r.valid_at, r.invalid_at, r.edge_source
          FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
          WHERE r.chunk_id = ? AND r.superseded_at IS NULL ORDER BY r.id`,
    args: [chunkId],
  });
  const entities = new Map<string, CarriedEntity>();
  const put = (name: unknown, type: unknown, link?: CarriedEntity["link"]) => {
    const key = String(name).toLowerCase();
    if (entities.has(key)) return;
    const e: CarriedEntity = { name: String(name) };
    if (type !== null && type !== undefined) e.type = String(type);
    if (link) e.link = link;
    entities.set(key, e);
  };
  for (const r of linked.rows) put(r.n, r.t, Number(r.s) ? "subject" : "mention");
  const out: CarriedEdge[] = [];
  for (const r of edges.rows) {
    put(r.fn, r.ft);
    put(r.tn, r.tt);
    const e: CarriedEdge = { from: String(r.fn), type: String(r.type), to: String(r.tn), source: String(r.edge_source) };
    if (r.valid_at !== null) e.valid_at = String(r.valid_at);
    if (r.invalid_at !== null) e.invalid_at = String(r.invalid_at);
    out.push(e);
  }
  return { entities: [...entities.values()], edges: out };
}

/** Active file sources the chunk is a current part of. */
export async function filesOfChunk(ex: Exec, chunkId: number): Promise<CarriedFile[]> {
  const rs = await ex.execute({
    sql: `SELECT s.kind, s.root, s.path, s.hash FROM file_source_chunks l JOIN file_sources s ON s.id = l.source_id
          WHERE l.chunk_id = ? AND l.stale = 0 AND s.state = 'active' ORDER BY s.id`,
    args: [chunkId],
  });
  return rs.rows.map((r) => ({ kind: String(r.kind), root: String(r.root), path: String(r.path), hash: String(r.hash) }));
}

/** Adds a chunk to a file source (created when absent) without unlinking its other chunks. */
export async function addChunkToFileSource(ex: Exec, f: CarriedFile, chunkId: number, at: string): Promise<void> {
  const rs = await ex.execute({
    sql: `INSERT INTO file_sources (kind, root, path, hash, state, updated_at) VALUES (?, ?, ?, ?, 'active', ?)
          ON CONFLICT(kind, root, path) DO UPDATE SET hash = excluded.hash, state = 'active' RETURNING id`,
    args: [f.kind, f.root, f.path, f.hash, at],
  });
  await ex.execute({
    sql: `INSERT INTO file_source_chunks (source_id, chunk_id, stale) VALUES (?, ?, 0) ON CONFLICT(source_id, chunk_id) DO UPDATE SET stale = 0`,
    args: [Number(rs.rows[0].id), chunkId],
  });
}
