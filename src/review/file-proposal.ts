/**
 * Files a candidate as a pending proposal (SPEC §3: "(none) → proposal
 * pending ... Scored. No knowledge row is created"). The candidate is
 * screened at the same seam as every write (refused only where
 * `INJECTION_POLICY` refuses it; otherwise the verdict is filed for the reviewer), scored
 * deterministically, and inserted with its audit row in one transaction.
 * A candidate identical to a proposal that is still pending returns that
 * proposal (`duplicate: true`) and writes nothing. The reply carries no
 * `content_digest`: a reviewer takes it from the review view it read.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import type { IngestKind, Origin } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import type { WriteContext } from "../ingest/context.ts";
import { requireRegisteredDomain } from "../ingest/ingest-structured.ts";
import { screenWrites } from "../ingest/screen-write.ts";
import { findChunkByHash } from "../store/chunks.ts";
import { findPendingByHash, insertProposal } from "../store/proposals.ts";
import { scoreProposal } from "./score-proposal.ts";

/** A candidate for review. */
export interface ProposalInput {
  content: string;
  title?: string;
  domain?: string;
  /** `capture` proposals (channel auto-capture) promote to a KCS draft knowledge row (SPEC §3). */
  kind?: "memory" | "capture";
  /** The door it came through (`/ingest/proposal`, `/ingest/memory`, …). */
  door: string;
  /** Ingest kind the promoted chunk is stamped with (default `memory`). */
  ingestKind?: IngestKind;
  origin?: Origin;
  /** Owner label (a DID or an account id) carried to the promoted chunk's `meta.owner`. */
  owner?: string;
  /** Provenance source string (SPEC §8 MAX_SOURCE). */
  source?: string;
  /** The sourcing prompt shown on the review view (SPEC §2.7, §8 MAX_SOURCE_PROMPT). */
  sourcePrompt?: string;
  /** A UMP door's sealed record; approval stores it under its id (issue 22 item 1). */
  umpRecord?: { id: string; json: string };
  /** The door's identity hash of the entry (default XXH3-64 of `content`): the conversation door hashes title and
   *  window together, so two turns that share a window stay two proposals and two chunks. */
  contentHash?: string;
  /** Chunk metadata the door computed (the conversation door's speaker and session labels), kept for the promoted chunk. */
  meta?: Record<string, unknown>;
}

/** The filing outcome (this project's shape for `POST /ingest/proposal`). */
export interface FiledProposal {
  id: number;
  status: "pending";
  score: number;
  verdict: string;
  domain: string;
  untrusted: true;
  duplicate?: true;
}

/** What filing needs. */
export interface FilingDeps {
  ctx: WriteContext;
  audit: AuditService;
}

/** Screens, scores and files one candidate. Content and title must already be validated. */
export async function fileProposal(d: FilingDeps, input: ProposalInput): Promise<FiledProposal> {
  const domain = input.domain ?? GLOBAL_DOMAIN;
  await requireRegisteredDomain(d.ctx, domain);
  const kind = input.kind ?? "memory";
  // SPEC §1 Trust rules: the same screen seam and policy table as every write door.
  const [{ result: verdict }] = await screenWrites(d.ctx.injectionPolicy, d.ctx.classifier, [{ content: input.content, title: input.title }]);
  const contentHash = input.contentHash ?? await xxh3Hex(input.content);
  const reply = (id: number, score: number, duplicate: boolean): FiledProposal => {
    const r: FiledProposal = { id, status: "pending", score, verdict: verdict.verdict, domain, untrusted: true };
    if (duplicate) r.duplicate = true;
    return r;
  };
  const pending = await findPendingByHash(d.ctx.db.client, contentHash);
  if (pending) return reply(pending.id, pending.score, true);
  const dup = await findChunkByHash(d.ctx.db.client, contentHash);
  const origin = input.origin ?? "agent";
  const scored = scoreProposal({ text: input.title ? `${input.title}\n${input.content}` : input.content, screen: verdict, duplicateOf: dup?.id, origin });
  const now = d.ctx.clock().toISOString();
  const out = await d.ctx.db.write(async (tx) => {
    const again = await findPendingByHash(tx, contentHash);
    if (again) return { id: again.id, score: again.score, duplicate: true };
    const id = await insertProposal(tx, {
      kind, door: input.door, title: input.title, content: input.content, contentHash, domain, ingestKind: input.ingestKind ?? "memory",
      origin, owner: input.owner, source: input.source, sourcePrompt: input.sourcePrompt, score: scored.score,
      umpId: input.umpRecord?.id, umpRecord: input.umpRecord?.json, ...(input.meta ? { meta: input.meta } : {}),
      scoreBreakdown: { score: scored.score, components: scored.components },
      screen: { verdict: verdict.verdict, reasons: verdict.reasons, score: verdict.score }, createdAt: now,
    });
    await d.audit.append(tx, {
      action: "propose", target: `proposal:${id}`,
      detail: { proposal_id: id, door: input.door, domain, content_hash: contentHash, score: scored.score, verdict: verdict.verdict },
    });
    return { id, score: scored.score, duplicate: false };
  });
  return reply(out.id, out.score, out.duplicate);
}
