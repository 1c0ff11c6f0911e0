/**
 * The store's identity (migration 165) and the change-sequence row a node's boot cache was written at (issue 20,
 * src/recall/node-cache.ts): together they say whether a cache describes this database's history.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** The random id drawn when the store's schema was created. */
export async function storeIdentity(ex: Exec): Promise<string> {
  ex = localOf(ex);
  const rs = await ex.execute("SELECT store_id FROM store_identity WHERE id = 1");
  return String(rs.rows[0]?.store_id ?? "");
}

/** The chunk and commit time of change `seq`, or undefined when the row is not kept (pruned, or never written). */
export async function changeAt(ex: Exec, seq: number): Promise<{ chunkId: number; atMs: number } | undefined> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT chunk_id, at_ms FROM chunk_changes WHERE seq = ?", args: [seq] });
  return rs.rows.length ? { chunkId: Number(rs.rows[0].chunk_id), atMs: Number(rs.rows[0].at_ms) } : undefined;
}
