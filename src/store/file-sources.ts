/**
 * File sources of the vault binding (SPEC §4.2 `source` `vault`, §4.4
 * `/sources/reconcile`): one row per file of a reconciled directory with the
 * hash last read or written, and the chunks ingested from it. A deleted
 * file's row is marked `deleted`; its chunks become orphans, swept later.
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** One file source. */
export interface FileSource {
  id: number;
  kind: string;
  root: string;
  path: string;
  hash: string;
  state: "active" | "deleted";
  /** Set for a file the store wrote (a UMP record written back into the vault). */
  recordId?: string;
  updatedAt: string;
}

function toSource(r: Row): FileSource {
  const s: FileSource = {
    id: Number(r.id), kind: String(r.kind), root: String(r.root), path: String(r.path), hash: String(r.hash),
    state: String(r.state) as FileSource["state"], updatedAt: String(r.updated_at),
  };
  if (r.record_id !== null) s.recordId = String(r.record_id);
  return s;
}

/** Every source of one root (any state), by path. */
export async function listFileSources(ex: Exec, kind: string, root: string): Promise<FileSource[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM file_sources WHERE kind = ? AND root = ? ORDER BY path", args: [kind, root] });
  return rs.rows.map(toSource);
}

/** Inserts or replaces the source at a path (state active); returns its id. */
export async function upsertFileSource(
  ex: Exec, s: { kind: string; root: string; path: string; hash: string; recordId?: string; at: string },
): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO file_sources (kind, root, path, hash, state, record_id, updated_at) VALUES (?, ?, ?, ?, 'active', ?, ?)
          ON CONFLICT(kind, root, path) DO UPDATE SET hash = excluded.hash, state = 'active', record_id = excluded.record_id,
          updated_at = excluded.updated_at RETURNING id`,
    args: [s.kind, s.root, s.path, s.hash, s.recordId ?? null, s.at],
  });
  return Number(rs.rows[0].id);
}

/** Moves a source to a new path (same content). */
export async function moveFileSource(ex: Exec, id: number, path: string, at: string): Promise<void> {
  await ex.execute({ sql: "UPDATE file_sources SET path = ?, updated_at = ? WHERE id = ?", args: [path, at, id] });
}

/** Marks a source deleted; its chunk links stay until the sweep. */
export async function markFileSourceDeleted(ex: Exec, id: number, at: string): Promise<void> {
  await ex.execute({ sql: "UPDATE file_sources SET state = 'deleted', updated_at = ? WHERE id = ?", args: [at, id] });
}

/** Sets the current chunks of a source; links to chunks it no longer has stay, marked stale, until the sweep. */
export async function setSourceChunks(ex: Exec, sourceId: number, chunkIds: number[]): Promise<void> {
  await ex.execute({ sql: "UPDATE file_source_chunks SET stale = 1 WHERE source_id = ?", args: [sourceId] });
  for (const c of new Set(chunkIds)) {
    await ex.execute({
      sql: `INSERT INTO file_source_chunks (source_id, chunk_id, stale) VALUES (?, ?, 0)
            ON CONFLICT(source_id, chunk_id) DO UPDATE SET stale = 0`,
      args: [sourceId, c],
    });
  }
}

/** Current (non-stale) chunk ids of a source. */
export async function chunksOfSource(ex: Exec, sourceId: number): Promise<number[]> {
  const rs = await ex.execute({ sql: "SELECT chunk_id FROM file_source_chunks WHERE source_id = ? AND stale = 0 ORDER BY chunk_id", args: [sourceId] });
  return rs.rows.map((r) => Number(r.chunk_id));
}

/**
 * Orphans: chunks linked to some file source but current in no active one
 * (their file was deleted, or changed so that they are no longer in it).
 */
export async function listOrphanChunks(ex: Exec, limit: number): Promise<number[]> {
  const rs = await ex.execute({
    sql: `SELECT DISTINCT l.chunk_id AS id FROM file_source_chunks l
          WHERE NOT EXISTS (SELECT 1 FROM file_source_chunks k JOIN file_sources s ON s.id = k.source_id
                            WHERE k.chunk_id = l.chunk_id AND k.stale = 0 AND s.state = 'active')
          ORDER BY l.chunk_id LIMIT ?`,
    args: [limit],
  });
  return rs.rows.map((r) => Number(r.id));
}

/** Drops stale links of chunks that are still current elsewhere (nothing to sweep for them). */
export async function dropStaleLinks(ex: Exec): Promise<void> {
  await ex.execute("DELETE FROM file_source_chunks WHERE stale = 1");
}

/** Drops the links of a chunk (the chunk was deleted). */
export async function unlinkChunkFromSources(ex: Exec, chunkId: number): Promise<void> {
  await ex.execute({ sql: "DELETE FROM file_source_chunks WHERE chunk_id = ?", args: [chunkId] });
}

/** Removes deleted sources that no longer link any chunk. */
export async function purgeEmptyDeletedSources(ex: Exec): Promise<number> {
  const rs = await ex.execute(`DELETE FROM file_sources WHERE state = 'deleted'
    AND NOT EXISTS (SELECT 1 FROM file_source_chunks k WHERE k.source_id = file_sources.id)`);
  return rs.rowsAffected;
}

/** The source at a path (any state), or undefined. */
export async function findFileSource(ex: Exec, kind: string, root: string, path: string): Promise<FileSource | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM file_sources WHERE kind = ? AND root = ? AND path = ?", args: [kind, root, path] });
  return rs.rows.length ? toSource(rs.rows[0]) : undefined;
}

/**
 * Chunks a source alone holds: linked to it (current or stale) and current in no other active source. A file door
 * may replace these when the file's labels changed (title, front matter, line spans); a chunk another file shares
 * keeps the labels it was first written with.
 */
export async function chunksOwnedBySource(ex: Exec, sourceId: number): Promise<number[]> {
  const rs = await ex.execute({
    sql: `SELECT l.chunk_id AS id FROM file_source_chunks l WHERE l.source_id = ?
          AND NOT EXISTS (SELECT 1 FROM file_source_chunks k JOIN file_sources s ON s.id = k.source_id
                          WHERE k.chunk_id = l.chunk_id AND k.source_id <> l.source_id AND k.stale = 0 AND s.state = 'active')
          ORDER BY l.chunk_id`,
    args: [sourceId],
  });
  return rs.rows.map((r) => Number(r.id));
}
