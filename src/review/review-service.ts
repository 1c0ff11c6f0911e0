/**
 * The review service the composition root exposes (SPEC §1 item 4, §2.7,
 * §3, §4.3): file proposals (`POST /ingest/proposal` and the
 * posture-carrying doors under `review`), list and read them as review
 * views with their `content_digest`, approve (digest-bound, fail closed)
 * and reject.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { WritePosture } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { ReviewGate } from "../ingest/ports.ts";
import { getProposal, listProposals, type ProposalStatus } from "../store/proposals.ts";
import { approveProposal, type ApproveResult, type PromotionHook } from "./approve-proposal.ts";
import { fileProposal, type FiledProposal, type ProposalInput } from "./file-proposal.ts";
import { parseProposalBody, type ProposalBodyInput } from "./parse-proposal.ts";
import type { ReadCanonical } from "./read-canonical.ts";
import { rejectProposal, type RejectResult } from "./reject-proposal.ts";
import { proposalView, type ProposalView } from "./review-view.ts";
import { routeWrite, type PostureDoor } from "./route-write.ts";
import type { DecisionHook } from "./decision-hooks.ts";

/** Review operations. */
export interface ReviewService {
  readonly posture: WritePosture;
  readonly pipeline: ReadCanonical;
  /** The gate handed to the posture-carrying write doors. */
  readonly gate: ReviewGate;
  /** `POST /ingest/proposal`. */
  propose(body: ProposalBodyInput): Promise<FiledProposal>;
  /** Files an already-validated candidate (other doors). */
  file(input: ProposalInput): Promise<FiledProposal>;
  /** Review views; text fields are PII-redacted unless `piiRead` (the digest is the same either way). */
  list(o: { status?: string; after?: number; limit?: number; piiRead?: boolean }): Promise<ProposalView[]>;
  get(id: number, o?: { piiRead?: boolean }): Promise<ProposalView>;
  approve(id: number, o: { digest?: string; supersedes?: number }): Promise<ApproveResult>;
  reject(id: number): Promise<RejectResult>;
  /** Registers work that runs in the approval transaction (the UMP service: keep the handed-out record id). */
  addPromotionHook(h: PromotionHook): void;
  /** Registers what deciding a proposal filed through `door` does instead of promoting it (src/review/decision-hooks.ts). */
  onDecision(door: string, hook: DecisionHook): void;
}

const STATUSES: readonly string[] = ["pending", "approved", "rejected"];

/** Builds the review service. */
export function createReviewService(o: { ctx: WriteContext; audit: AuditService; pipeline: ReadCanonical; posture: WritePosture }): ReviewService {
  const deps = { ctx: o.ctx, audit: o.audit, pipeline: o.pipeline, promotionHooks: [] as PromotionHook[], hooks: new Map<string, DecisionHook>() };
  const file = (input: ProposalInput) => fileProposal(deps, input);
  return {
    posture: o.posture,
    pipeline: o.pipeline,
    gate: { route: (door) => routeWrite(o.posture, door as PostureDoor), file },
    propose: (body) => file(parseProposalBody(body, "/ingest/proposal")),
    file,
    async list({ status, after = 0, limit = 100, piiRead = true }) {
      if (status !== undefined && !STATUSES.includes(status)) {
        throw new MemoryError("invalid_request", "status must be pending, approved or rejected", { field: "status", allowed: STATUSES });
      }
      const rows = await listProposals(o.ctx.db.client, { status: status as ProposalStatus | undefined, afterId: after, limit: Math.max(1, Math.min(500, limit)) });
      return rows.map((r) => proposalView(r, o.pipeline, { piiRead }));
    },
    async get(id, { piiRead = true } = {}) {
      const p = await getProposal(o.ctx.db.client, id);
      if (!p) throw new MemoryError("not_found", `proposal ${id} not found`);
      return proposalView(p, o.pipeline, { piiRead });
    },
    approve: (id, a) => approveProposal(deps, id, a),
    reject: (id) => rejectProposal(deps, id),
    addPromotionHook: (h) => void deps.promotionHooks.push(h),
    onDecision: (door, hook) => void deps.hooks.set(door, hook),
  };
}
