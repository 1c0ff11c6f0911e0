/**
 * The one write path every ingest door ends in: duplicate check by content
 * hash, screen, capacity guard, embedding, then the chunks, their vectors,
 * their graph rows and their audit rows in ONE transaction (SPEC §4.2,
 * STYLE rule 10), then the in-memory index hooks.
 */
import { checkWork, paceWork } from "../core/deadline.ts";
import { MemoryError } from "../core/errors.ts";
import type { Chunk, NewChunk } from "../core/types.ts";
import { countChunks, findChunksByHashes, insertChunks } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { dbsOf, writeIn } from "../store/domain-dbs.ts";
import { putVectors } from "../store/vectors.ts";
import type { WriteContext } from "./context.ts";
import { removeChunkInTx } from "./remove-chunk.ts";
import { runTxHooks, type TxEvent } from "./ports.ts";
import { screenWrites } from "./screen-write.ts";
import { embedText, screenAndEmbed } from "./text-work.ts";

/** Outcome of one chunk write: a value, not an exception (STYLE rule 8). */
export interface WriteOutcome {
  id: number;
  status: "created" | "duplicate";
  domain: string;
  chunk: Chunk;
}

/** Extra rows written in the same transaction as the chunks (graph rows); gets the ids of created chunks. */
export type ExtraWrites = (tx: Exec, chunkId: number, now: string, created: readonly (number | undefined)[]) => Promise<unknown>;

/** Writes one chunk (or returns the existing duplicate, with no writes at all). */
export async function writeChunk(ctx: WriteContext, c: NewChunk, extra?: ExtraWrites, action = "ingest", auditDetail?: Record<string, unknown>): Promise<WriteOutcome> {
  return (await writeChunks(ctx, [c], extra, action, auditDetail))[0];
}

/**
 * Rows written in the same transaction whatever was created (the connector sync's source links and cursor, issue 15);
 * gets every input's chunk id, created or duplicate, in input order.
 */
export type AfterWrites = (tx: Exec, ids: number[]) => Promise<void>;

/**
 * Chunks a write removes in its own transaction (each with a tombstone and an audit row, as `DELETE /memory/{id}`):
 * the file doors keep a note's chunks equal to what the markdown door makes of the note as it is now, and a
 * re-imported conversation keeps its session equal to the export's turns.
 */
export interface Replacing {
  /** Replace a stored duplicate (same content hash, same domain) when this says its labels are stale. */
  replace?: (stored: Chunk, fresh: NewChunk) => boolean;
  /** Chunk ids removed (when still present) in the write's transaction. */
  remove?: readonly number[];
  /** The tombstone reason of what `replace` and `remove` delete. */
  reason?: string;
}

/**
 * Writes several chunks atomically. Duplicates (by content hash, also within
 * the batch) are returned as such and cost no writes; `extra` runs once,
 * after the chunk rows, only when at least one chunk was created.
 * `auditDetail` adds fields to each created chunk's audit-row detail.
 */
export async function writeChunks(
  ctx: WriteContext, input: NewChunk[], extra?: ExtraWrites, action = "ingest", auditDetail?: Record<string, unknown>,
  after?: AfterWrites, replacing: Replacing = {},
): Promise<WriteOutcome[]> {
  // Multi-database mode: each domain's chunks commit in its own database, one domain at a time (docs/scale-out.md).
  const domains = [...new Set(input.map((c) => c.domain))];
  if (ctx.db.router !== undefined && domains.length > 1) {
    if (replacing.replace || replacing.remove?.length) throw new MemoryError("invalid_request", "a replacing write must stay within one domain in multi-database mode", undefined, 400);
    return await writeByDomain(ctx, input, domains, extra, action, auditDetail, after);
  }
  const known = await findAnywhere(ctx, input.map((c) => c.contentHash));
  // SPEC §8: the screen and the embedding are paced by the request's deadline (src/ingest/text-work.ts); past it
  // the write stops here, or at its transaction's COMMIT (src/store/db.ts), with nothing written.
  checkWork(ctx.work);
  // Stale duplicates to replace: deleted, then written afresh, in the transaction below.
  const replaced = new Set<number>();
  if (replacing.replace) {
    for (const c of input) {
      const had = known.get(c.contentHash);
      if (had && had.domain === c.domain && replacing.replace(had, c)) {
        replaced.add(had.id);
        known.delete(c.contentHash);
      }
    }
  }
  const removing = [...new Set([...replaced, ...(replacing.remove ?? [])])];
  const pre = input.map((c) => known.get(c.contentHash));
  const todo: { i: number; c: NewChunk }[] = [];
  const seen = new Set<string>();
  input.forEach((c, i) => {
    if (pre[i] || seen.has(c.contentHash)) return;
    seen.add(c.contentHash);
    todo.push({ i, c });
  });
  // SPEC §1: every door is screened (rules, plus the optional classifier); verdicts only move toward quarantine/reject.
  // Issue 25: the rules screen and the embedding run together, a share on the worker pool when there is one.
  const text = todo.length ? await screenAndEmbed(ctx, todo.map((t) => t.c)) : { rules: [], vectors: undefined };
  const verdicts = await screenWrites(ctx.injectionPolicy, ctx.classifier, todo.map((t) => t.c), text.rules);
  checkWork(ctx.work);
  todo.forEach((t, k) => {
    const verdict = verdicts[k];
    if (verdict.result.verdict === "clean") return;
    // A release decision the operator's import carried stands for a quarantine verdict (src/ump/store-record.ts).
    const released = t.c.keepRelease === true && verdict.result.verdict === "quarantine";
    t.c = { ...t.c, flagged: released ? false : t.c.flagged || verdict.flagged, meta: { ...(t.c.meta ?? {}), screen: verdict.result } };
  });
  const vectors = text.vectors;
  const removed: number[] = [];
  const out = await writeIn(ctx.db, domains[0] ?? "global", async (tx) => {
    const res: (WriteOutcome | undefined)[] = new Array(input.length);
    const created: (number | undefined)[] = new Array(input.length);
    for (const id of removing) if (await removeChunkInTx(ctx, tx, id, replacing.reason ?? "replaced")) removed.push(id);
    let count = todo.length ? await countEverywhere(ctx, tx) : 0;
    const byHash = new Map<string, WriteOutcome>();
    // Re-check inside the serialised transaction: a concurrent request may have written the same content.
    // (Every chunk write holds the global write transaction, so the other databases cannot change meanwhile.)
    const written = todo.length ? await findAnywhere(ctx, todo.map((t) => t.c.contentHash), tx) : new Map<string, Chunk>();
    const fresh: { i: number; k: number; c: NewChunk; now: string }[] = [];
    for (let k = 0; k < todo.length; k++) {
      const { i, c } = todo[k];
      const again = written.get(c.contentHash);
      if (again && !removed.includes(again.id)) {
        res[i] = { id: again.id, status: "duplicate", domain: again.domain, chunk: again };
        continue;
      }
      if (count >= ctx.maxDocs) {
        throw new MemoryError("capacity_exceeded", "the store is at its capacity envelope; delete entries or raise CAIRN_MAX_DOCS", { max_docs: ctx.maxDocs }, 507);
      }
      count++;
      fresh.push({ i, k, c, now: c.createdAt ?? ctx.clock().toISOString() });
    }
    // Rows, then one audit event per chunk in input order (multi-row statements: batch ingest throughput).
    const chunks = await insertChunks(tx, fresh.map((f) => ({ chunk: f.c, createdAt: f.now })));
    const pendingVectors: { chunkId: number; vec: Float32Array }[] = [];
    const events: TxEvent[] = fresh.map(({ i, k, c }, j) => {
      const chunk = chunks[j];
      if (vectors) pendingVectors.push({ chunkId: chunk.id, vec: vectors[k] });
      res[i] = { id: chunk.id, status: "created", domain: c.domain, chunk };
      created[i] = chunk.id;
      byHash.set(c.contentHash, res[i]!);
      const detail: Record<string, unknown> = { domain: c.domain, source: c.source, content_hash: c.contentHash, ...auditDetail };
      if (c.flagged) detail.flagged = true;
      return { action, chunkId: chunk.id, detail };
    });
    await runTxHooks(ctx.txHooks, tx, events);
    // One multi-row statement per 400 vectors instead of one per chunk, still inside the transaction.
    await putVectors(tx, pendingVectors);
    const firstCreated = created.find((x) => x !== undefined);
    if (extra && firstCreated !== undefined) await extra(tx, firstCreated, ctx.clock().toISOString(), created);
    if (after) {
      const firstAt = new Map<string, number>();
      input.forEach((c, i) => { if (!firstAt.has(c.contentHash)) firstAt.set(c.contentHash, i); });
      const ids = input.map((c, i) => res[i]?.id ?? byHash.get(c.contentHash)?.id ?? pre[i]?.id ?? res[firstAt.get(c.contentHash)!]?.id ?? pre[firstAt.get(c.contentHash)!]!.id);
      await after(tx, ids);
    }
    return { res, byHash };
  });
  for (const id of removed) for (const h of ctx.indexHooks) h.removed(id);
  const firstOf = new Map<string, number>();
  input.forEach((c, i) => { if (!firstOf.has(c.contentHash)) firstOf.set(c.contentHash, i); });
  const result = input.map((c, i) => {
    const r = out.res[i] ?? out.byHash.get(c.contentHash);
    if (r) return i === firstOf.get(c.contentHash) ? r : { ...r, status: "duplicate" as const };
    const d = pre[i]!;
    return { id: d.id, status: "duplicate" as const, domain: d.domain, chunk: d };
  });
  // Committed: the indexes hear of each chunk (no deadline can stop this now; a long batch still yields between
  // chunks so the event loop serves other requests, SPEC §8).
  for (let k = 0; k < todo.length; k++) {
    const r = out.res[todo[k].i];
    if (r && r.status === "created") for (const h of ctx.indexHooks) h.added(r.chunk, vectors?.[k]);
    if (k % 16 === 15) await paceWork(ctx.work);
  }
  return result;
}

/** The text embedded for a chunk: title and content (src/ingest/text-work.ts). */
export { embedText };

// Content hashes are unique across the whole store (SPEC §4.2 duplicates), whichever database holds the chunk.
async function findAnywhere(ctx: WriteContext, hashes: string[], tx?: Exec): Promise<Map<string, Chunk>> {
  const dbs = dbsOf(ctx.db);
  if (dbs.length === 1) return await findChunksByHashes(tx ?? ctx.db.client, hashes);
  const out = new Map<string, Chunk>();
  for (const db of dbs) for (const [h, c] of await findChunksByHashes(db.client, hashes)) if (!out.has(h)) out.set(h, c);
  if (tx !== undefined) for (const [h, c] of await findChunksByHashes(tx, hashes)) if (!out.has(h)) out.set(h, c);
  return out;
}

// The capacity guard counts every database's chunks (SPEC §8 envelope is per store, not per domain). Read before any
// insert of this write, so the committed counts are the transaction's own view.
async function countEverywhere(ctx: WriteContext, tx: Exec): Promise<number> {
  const dbs = dbsOf(ctx.db);
  if (dbs.length === 1) return await countChunks(tx);
  let n = 0;
  for (const db of dbs) n += await countChunks(db.client);
  return n;
}

/**
 * Multi-database mode, input spanning several domains: one write per domain (each atomic in its database, with its
 * audit rows), in first-appearance order. `extra` sees the created ids at their input positions, as in one write.
 */
async function writeByDomain(
  ctx: WriteContext, input: NewChunk[], domains: string[], extra: ExtraWrites | undefined, action: string,
  auditDetail: Record<string, unknown> | undefined, after: AfterWrites | undefined,
): Promise<WriteOutcome[]> {
  // `after` sees every input's id in one transaction: its one caller (a connector page) writes a single domain.
  if (after !== undefined) throw new MemoryError("invalid_request", "a write with source links must stay within one domain in multi-database mode", undefined, 400);
  const result: WriteOutcome[] = new Array(input.length);
  for (const domain of domains) {
    const at = input.flatMap((c, i) => (c.domain === domain ? [i] : []));
    const spread = (sub: readonly (number | undefined)[]) => {
      const full: (number | undefined)[] = new Array(input.length);
      at.forEach((i, k) => { full[i] = sub[k]; });
      return full;
    };
    const outs = await writeChunks(
      ctx, at.map((i) => input[i]), extra && ((tx, first, now, created) => extra(tx, first, now, spread(created))), action, auditDetail,
    );
    at.forEach((i, k) => { result[i] = outs[k]; });
  }
  return result;
}
