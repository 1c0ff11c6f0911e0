/**
 * Removes one chunk inside a write transaction (SPEC §3, §4.4): its vector,
 * the owning-chunk reference of the edges it produced, the row, a tombstone
 * and the audit row through the transaction hooks. `DELETE /memory/{id}`
 * runs it in its own transaction; a write that replaces chunks (a vault note
 * whose labels changed, a re-imported conversation) runs it in the same
 * transaction as the chunks that take their place (STYLE rule 10).
 */
import type { Chunk } from "../core/types.ts";
import { deleteChunkRow, getChunk } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { releaseEdgesOfChunk } from "../store/graph-rows.ts";
import { insertTombstone } from "../store/tombstones.ts";
import { deleteVector } from "../store/vectors.ts";
import type { WriteContext } from "./context.ts";

/** Deletes chunk `id` in `tx` with its tombstone and audit row; the chunk it removed, or undefined when absent. */
export async function removeChunkInTx(ctx: WriteContext, tx: Exec, id: number, reason: string): Promise<Chunk | undefined> {
  const c = await getChunk(tx, id);
  if (!c) return undefined;
  await deleteVector(tx, id);
  await releaseEdgesOfChunk(tx, id);
  await deleteChunkRow(tx, id);
  await insertTombstone(tx, { chunkId: id, domain: c.domain, contentHash: c.contentHash, reason, deletedAt: ctx.clock().toISOString() });
  for (const h of ctx.txHooks) await h(tx, { action: "delete", chunkId: id, detail: { domain: c.domain, content_hash: c.contentHash, reason } });
  return c;
}
