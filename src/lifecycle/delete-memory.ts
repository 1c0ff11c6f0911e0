/**
 * `DELETE /memory/{id}` (SPEC §3, §4.4): removes the chunk, its vector and
 * lexical entries, nulls the owning-chunk reference of relations it
 * produced, and records a tombstone — one transaction.
 */
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import { removeChunkInTx } from "../ingest/remove-chunk.ts";
import { getChunk } from "../store/chunks.ts";
import type { Chunk } from "../core/types.ts";
import { groupIds, writeIn } from "../store/domain-dbs.ts";

/** Parses a path id: a positive decimal integer, else 400 (SPEC §4.4). */
export function parseChunkId(raw: string): number {
  if (!/^[0-9]{1,18}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw new MemoryError("invalid_id", "id must be a numeric chunk id", { field: "id" }, 400);
  }
  return Number(raw);
}

/** Deletes one chunk; 404 `not_found` when absent. */
export async function deleteMemory(ctx: WriteContext, id: number, reason = "delete"): Promise<{ deleted: true }> {
  const existing = await findChunk(ctx, id);
  if (!existing) throw new MemoryError("not_found", `memory ${id} not found`);
  // Multi-database mode: the chunk's rows go in its domain's database, the audit row in the global one.
  const done = await writeIn(ctx.db, existing.domain, async (tx) => (await removeChunkInTx(ctx, tx, id, reason)) !== undefined);
  if (!done) throw new MemoryError("not_found", `memory ${id} not found`);
  for (const h of ctx.indexHooks) h.removed(id);
  return { deleted: true };
}

// The chunk wherever it is stored (one database, or the one its id range names in multi-database mode).
async function findChunk(ctx: WriteContext, id: number): Promise<Chunk | undefined> {
  for (const [db] of groupIds(ctx.db, [id])) {
    const c = await getChunk(db.client, id);
    if (c !== undefined) return c;
  }
  return undefined;
}
