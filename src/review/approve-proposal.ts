/**
 * `POST /proposals/{id}/approve?digest=…[&supersedes=…]` (SPEC §3, §4.3).
 * The digest is required (400 `digest_required`) and must equal the
 * proposal's current `content_digest` — recomputed from the stored row
 * under the current read pipeline — or the approval fails closed with 409
 * `digest_mismatch`. The check is repeated inside the write transaction,
 * where the chunk insert, its vector, the proposal's move to `approved`
 * with `promoted_chunk_id`, the optional approved `supersedes` link and the
 * audit row all commit together (through the one write path, `writeChunk`).
 * Content already stored promotes nothing: the proposal is approved with
 * `promoted_chunk_id` null, and the audit row names the existing chunk.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import type { NewChunk, Origin } from "../core/types.ts";
import type { WriteContext } from "../ingest/context.ts";
import { confidenceFor } from "../ingest/confidence.ts";
import { writeChunk } from "../ingest/write-chunk.ts";
import { getChunk } from "../store/chunks.ts";
import { insertLink } from "../store/consolidation.ts";
import { checkSupersedes } from "./check-supersedes.ts";
import type { Exec } from "../store/db.ts";
import { decideProposal, getProposal, type ProposalRow } from "../store/proposals.ts";
import { contentDigest } from "./content-digest.ts";
import type { DecisionHooks } from "./decision-hooks.ts";
import type { ReadCanonical } from "./read-canonical.ts";
import { carriedOf, withCarriedLabels, writeCarriedEdges } from "../parcel/carried.ts";

/**
 * Runs inside the approval transaction once the chunk the proposal landed on
 * is known (promoted, or already stored); may return work to run after the
 * commit (in-memory indexes). The UMP service registers one so an approved
 * UMP proposal keeps the record id its door handed out (issue 22 item 1).
 */
export type PromotionHook = (tx: Exec, p: ProposalRow, chunkId: number) => Promise<(() => Promise<void>) | void>;

/** What approval needs. */
export interface ApproveDeps {
  ctx: WriteContext;
  audit: AuditService;
  pipeline: ReadCanonical;
  promotionHooks: PromotionHook[];
  /** Governed doors whose approval runs a hook instead of promoting (src/review/decision-hooks.ts). */
  hooks?: DecisionHooks;
}

/** The promotion result (this project's shape; SPEC §4.3 does not show it). */
export interface ApproveResult {
  id: number;
  status: "approved";
  promoted_chunk_id: number | null;
  /** Absent when a governed door's hook ran instead of a promotion (then `effect` is present). */
  chunk_status?: "created" | "duplicate";
  chunk_id?: number;
  /** What a governed door's approval did (e.g. a `channel/out` envelope became drainable). */
  effect?: Record<string, unknown>;
  supersedes?: number;
  link_id?: number;
  /** The UMP record id the approval stored, when a UMP door filed the proposal (the id its reply handed out). */
  record_id?: string;
  /** Present (true) when the promoted row was stored flagged: the screen still quarantines it, so it stays out of recall until released through `/quarantine` (SPEC §3). */
  flagged?: true;
}

/** A proposal that is still pending and still matches the digest, read through `ex`. */
async function checkedProposal(ex: Exec, id: number, digest: string, pipeline: ReadCanonical): Promise<ProposalRow> {
  const p = await getProposal(ex, id);
  if (!p) throw new MemoryError("not_found", `proposal ${id} not found`);
  if (p.status !== "pending") throw new MemoryError("proposal_not_pending", `proposal ${id} is already ${p.status}`, { status: p.status }, 409);
  // SPEC §3: fail closed when the reviewed bytes (content or pipeline) changed.
  if (contentDigest(p, pipeline) !== digest) {
    throw new MemoryError("digest_mismatch", "the proposal's content digest no longer matches; review it again", undefined, 409);
  }
  return p;
}

async function chunkFor(p: ProposalRow): Promise<NewChunk> {
  const kind = p.ingestKind as NewChunk["source"];
  const c: NewChunk = {
    // The hash the door filed it under (XXH3-64 of the content unless the door chose another identity, issue 24).
    content: p.content, domain: p.domain, contentHash: p.contentHash || await xxh3Hex(p.content), source: kind,
    origin: (p.origin ?? "agent") as Origin, confidence: confidenceFor(kind, p.source), flagged: false,
    meta: { ...(p.meta ?? {}), proposal_id: p.id, ...(p.owner !== undefined ? { owner: p.owner } : {}) },
  };
  if (p.title !== undefined) c.title = p.title;
  if (p.source !== undefined) c.originSource = p.source;
  // SPEC §3: capture proposals promote to a KCS draft knowledge row.
  if (p.kind === "capture") c.memoryKind = "kcs_draft";
  return c;
}

/** Approves a proposal. */
export async function approveProposal(d: ApproveDeps, id: number, o: { digest?: string; supersedes?: number }): Promise<ApproveResult> {
  if (o.digest === undefined || o.digest === "") throw new MemoryError("digest_required", "approve requires ?digest=<content_digest>", { field: "digest" });
  const digest = o.digest;
  const p = await checkedProposal(d.ctx.db.client, id, digest, d.pipeline);
  const hook = d.hooks?.get(p.door);
  if (hook) {
    // A governed door promotes nothing: the hook's effect commits with the decision and its audit row.
    const effect = await d.ctx.db.write(async (tx) => {
      const cur = await checkedProposal(tx, id, digest, d.pipeline);
      const now = d.ctx.clock().toISOString();
      await decideProposal(tx, id, { status: "approved", decidedAt: now });
      const e = await hook.approved(tx, cur, now);
      await d.audit.append(tx, { action: "approve", target: `proposal:${id}`, detail: { proposal_id: id, promoted: false, door: p.door, effect: e } });
      return e;
    });
    return { id, status: "approved", promoted_chunk_id: null, effect };
  }
  if (o.supersedes !== undefined && !(await getChunk(d.ctx.db.client, o.supersedes))) {
    throw new MemoryError("not_found", `memory ${o.supersedes} not found`, { field: "supersedes" });
  }
  let linkId: number | undefined;
  const after: (() => Promise<void>)[] = [];
  const promoted = async (tx: Exec, chunkId: number) => {
    for (const h of d.promotionHooks) {
      const then = await h(tx, p, chunkId);
      if (then) after.push(then);
    }
  };
  // SPEC §3: a row imported in a parcel promotes with the labels and edges it carried.
  const carried = await carriedOf(d.ctx.db.client, id);
  const chunk = carried ? withCarriedLabels(await chunkFor(p), carried) : await chunkFor(p);
  const out = await writeChunk(d.ctx, chunk, async (tx, chunkId, now) => {
    await checkedProposal(tx, id, digest, d.pipeline);
    if (carried) await writeCarriedEdges(tx, carried, { domain: chunk.domain, chunkId, contentHash: chunk.contentHash, now, sink: d.ctx.graphSink });
    if (o.supersedes !== undefined) {
      await checkSupersedes(tx, chunkId, o.supersedes, "supersedes");
      linkId = await insertLink(tx, { kind: "supersedes", from: chunkId, to: o.supersedes, status: "approved", basis: { rule: "approval", proposal_id: id }, createdAt: now });
    }
    if (!(await decideProposal(tx, id, { status: "approved", decidedAt: now, promotedChunkId: chunkId, supersedesChunkId: o.supersedes }))) {
      throw new MemoryError("proposal_not_pending", `proposal ${id} is no longer pending`, undefined, 409);
    }
    await promoted(tx, chunkId);
  }, "approve", { proposal_id: id, ...(o.supersedes !== undefined ? { supersedes: o.supersedes } : {}) });
  if (out.status === "duplicate") {
    // SPEC §2.7: null promoted_chunk_id means the approval promoted nothing.
    await d.ctx.db.write(async (tx) => {
      await checkedProposal(tx, id, digest, d.pipeline);
      const now = d.ctx.clock().toISOString();
      if (o.supersedes !== undefined) {
        await checkSupersedes(tx, out.id, o.supersedes, "supersedes");
        linkId = await insertLink(tx, { kind: "supersedes", from: out.id, to: o.supersedes, status: "approved", basis: { rule: "approval", proposal_id: id }, createdAt: now });
      }
      await decideProposal(tx, id, { status: "approved", decidedAt: now, supersedesChunkId: o.supersedes });
      await promoted(tx, out.id);
      await d.audit.append(tx, {
        action: "approve", target: `proposal:${id}`,
        detail: { proposal_id: id, duplicate_of: out.id, promoted: false, ...(linkId !== undefined ? { supersedes: o.supersedes, link_id: linkId } : {}) },
      });
    });
  }
  const r: ApproveResult = {
    id, status: "approved", promoted_chunk_id: out.status === "created" ? out.id : null, chunk_status: out.status, chunk_id: out.id,
  };
  for (const then of after) await then();
  if (p.umpId !== undefined) r.record_id = p.umpId;
  if (o.supersedes !== undefined) {
    r.supersedes = o.supersedes;
    if (linkId !== undefined) r.link_id = linkId;
  }
  if (out.chunk.flagged) r.flagged = true;
  return r;
}
