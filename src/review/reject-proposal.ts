/**
 * `POST /proposals/{id}/reject` (SPEC §3): pending → rejected, audited,
 * never deleted. A `reason` is accepted by the binding but neither stored
 * nor written to the audit row (SPEC: "accepted but not persisted").
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import { decideProposal, getProposal } from "../store/proposals.ts";
import type { DecisionHooks } from "./decision-hooks.ts";

/** The rejection result (this project's shape). */
export interface RejectResult {
  id: number;
  status: "rejected";
}

/** Rejects a pending proposal; 404 when unknown, 409 `proposal_not_pending` when already decided. */
export async function rejectProposal(d: { ctx: WriteContext; audit: AuditService; hooks?: DecisionHooks }, id: number): Promise<RejectResult> {
  const p = await getProposal(d.ctx.db.client, id);
  if (!p) throw new MemoryError("not_found", `proposal ${id} not found`);
  await d.ctx.db.write(async (tx) => {
    const now = d.ctx.clock().toISOString();
    if (!(await decideProposal(tx, id, { status: "rejected", decidedAt: now }))) {
      const cur = await getProposal(tx, id);
      throw new MemoryError("proposal_not_pending", `proposal ${id} is already ${cur?.status ?? "decided"}`, { status: cur?.status }, 409);
    }
    // A governed door (src/review/decision-hooks.ts) hears of the rejection in the same transaction.
    await d.hooks?.get(p.door)?.rejected(tx, p, now);
    await d.audit.append(tx, { action: "reject", target: `proposal:${id}`, detail: { proposal_id: id, content_hash: p.contentHash } });
  });
  return { id, status: "rejected" };
}
