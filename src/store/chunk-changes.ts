/**
 * The chunk change sequence (migration 70, issue 20): the triggers write it,
 * every process's change feed reads it (src/changefeed/).
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** One change: the chunk it touched and how (insert, update, delete). */
export interface ChunkChange { seq: number; chunkId: number; op: "I" | "U" | "D"; atMs: number }

/** The newest sequence number (0 when nothing changed yet). One read of the primary key's last entry. */
export async function maxChangeSeq(ex: Exec): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute("SELECT seq FROM chunk_changes ORDER BY seq DESC LIMIT 1");
  return rs.rows.length ? Number(rs.rows[0].seq) : 0;
}

/** The oldest retained sequence number (0 when the table is empty). */
export async function minChangeSeq(ex: Exec): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute("SELECT seq FROM chunk_changes ORDER BY seq LIMIT 1");
  return rs.rows.length ? Number(rs.rows[0].seq) : 0;
}

/** Changes after `afterSeq` up to `limit` rows, in sequence order. */
export async function listChangesAfter(ex: Exec, afterSeq: number, limit: number): Promise<ChunkChange[]> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT seq, chunk_id, op, at_ms FROM chunk_changes WHERE seq > ? ORDER BY seq LIMIT ?", args: [afterSeq, limit] });
  return rs.rows.map((r) => ({ seq: Number(r.seq), chunkId: Number(r.chunk_id), op: String(r.op) as ChunkChange["op"], atMs: Number(r.at_ms) }));
}

/** Drops changes older than `beforeMs`, always keeping the newest (so the sequence never restarts). Returns rows removed. */
export async function pruneChanges(ex: Exec, beforeMs: number): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: "DELETE FROM chunk_changes WHERE at_ms < ? AND seq < (SELECT MAX(seq) FROM chunk_changes)",
    args: [beforeMs],
  });
  return rs.rowsAffected;
}

/** Every stored chunk id with its quarantine flag, in id order, a page at a time (the feed's full reconcile). */
export async function listChunkIdsAfter(ex: Exec, afterId: number, limit: number): Promise<{ id: number; flagged: boolean }[]> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT id, flagged FROM chunks WHERE id > ? ORDER BY id LIMIT ?", args: [afterId, limit] });
  return rs.rows.map((r) => ({ id: Number(r.id), flagged: Number(r.flagged) === 1 }));
}

/** The stored vectors of some chunks (a changed chunk's vector, read with its row). */
export async function vectorsOf(ex: Exec, ids: readonly number[]): Promise<Map<number, Float32Array>> {
  ex = localOf(ex);
  const out = new Map<number, Float32Array>();
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT chunk_id, embedding FROM chunk_vectors WHERE chunk_id IN (${part.map(() => "?").join(",")})`, args: [...part] });
    for (const r of rs.rows) out.set(Number(r.chunk_id), new Float32Array(r.embedding as ArrayBuffer));
  }
  return out;
}

/** Which of these ids are stored chunks in this database (multi-database mode: the full reconcile's check). */
export async function storedChunkIds(ex: Exec, ids: readonly number[]): Promise<number[]> {
  ex = localOf(ex);
  const out: number[] = [];
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT id FROM chunks WHERE id IN (${part.map(() => "?").join(",")})`, args: [...part] });
    for (const r of rs.rows) out.push(Number(r.id));
  }
  return out;
}
