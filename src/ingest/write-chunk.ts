/**
 * The one write path every ingest door ends in: duplicate check by content
 * hash, capacity guard, embedding, then the chunk, its vector and its graph
 * rows in one transaction (SPEC §4.2), then the in-memory index hooks.
 */
import { MemoryError } from "../core/errors.ts";
import type { Chunk, NewChunk } from "../core/types.ts";
import { countChunks, findChunkByHash, getChunk, insertChunk } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { putVector } from "../store/vectors.ts";
import { screenWrite } from "./screen-write.ts";
import type { WriteContext } from "./context.ts";

/** Outcome of one chunk write: a value, not an exception (STYLE rule 8). */
export interface WriteOutcome {
  id: number;
  status: "created" | "duplicate";
  domain: string;
  chunk: Chunk;
}

/** Extra rows written in the same transaction as the chunk (graph rows, a promoted proposal); a plain object it returns adds audit detail fields. */
export type ExtraWrites = (tx: Exec, chunkId: number, now: string) => Promise<unknown>;

/** Writes one chunk (or returns the existing duplicate, with no writes at all). */
export async function writeChunk(ctx: WriteContext, c: NewChunk, extra?: ExtraWrites, action = "ingest"): Promise<WriteOutcome> {
  const dup = await findChunkByHash(ctx.db.client, c.contentHash);
  if (dup) return { id: dup.id, status: "duplicate", domain: dup.domain, chunk: dup };
  // SPEC §1: every door is screened; verdicts only move toward quarantine/reject.
  const verdict = screenWrite(ctx.injectionPolicy, c.content, c.title);
  if (verdict.result.verdict !== "clean") {
    c = { ...c, flagged: c.flagged || verdict.flagged, meta: { ...(c.meta ?? {}), screen: verdict.result } };
  }
  const vector = ctx.embedder ? (await ctx.embedder.embed([embedText(c)]))[0] : undefined;
  const now = (c.createdAt ?? ctx.clock().toISOString());
  const out = await ctx.db.write(async (tx) => {
    // Re-check inside the serialised transaction: a concurrent request may have written the same content.
    const again = await findChunkByHash(tx, c.contentHash);
    if (again) return { id: again.id, status: "duplicate" as const, domain: again.domain, chunk: again };
    if ((await countChunks(tx)) >= ctx.maxDocs) {
      throw new MemoryError("capacity_exceeded", "the store is at its capacity envelope; delete entries or raise CAIRN_MAX_DOCS", { max_docs: ctx.maxDocs }, 507);
    }
    const id = await insertChunk(tx, c, now);
    if (vector) await putVector(tx, id, vector);
    const more = extra ? await extra(tx, id, now) : undefined;
    const detail: Record<string, unknown> = { domain: c.domain, source: c.source, content_hash: c.contentHash };
    if (typeof more === "object" && more !== null && !Array.isArray(more)) Object.assign(detail, more);
    if (c.flagged) detail.flagged = true;
    for (const h of ctx.txHooks) await h(tx, { action, chunkId: id, detail });
    const chunk = (await getChunk(tx, id))!;
    return { id, status: "created" as const, domain: c.domain, chunk };
  });
  if (out.status === "created") for (const h of ctx.indexHooks) h.added(out.chunk, vector);
  return out;
}

/** The text embedded for a chunk: title and content. */
export function embedText(c: { title?: string; content: string }): string {
  return c.title ? `${c.title}\n${c.content}` : c.content;
}
