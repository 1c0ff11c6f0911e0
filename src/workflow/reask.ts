/**
 * Re-ask detection (SPEC §6): a new case whose hashed subject matches a case
 * closed within `CAIRN_REASK_WINDOW_DAYS` files a `case_merge_suggested`
 * proposal in the review gate. Only a human's approval emits `case/reask`
 * on the new run, with `source: crm_merge` when the vendor merged the new
 * case into the closed one (`subject_match` otherwise). The proposal text
 * names the two case references and nothing personal.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { DecisionHook } from "../review/decision-hooks.ts";
import type { Exec } from "../store/db.ts";
import {
  decideMergeSuggestion, hasMergeSuggestion, insertMergeSuggestion, mergeSuggestionByProposal, mergeSuggestionByRun, setMergeSuggestionBasis,
} from "../store/workflow-channels.ts";
import { getRun, listRunEvents, recentClosedBySubject, updateEventPayload, type RunRow } from "../store/workflow-runs.ts";
import { emitEvent, sha256Hex } from "./emit-event.ts";
import { fileGovernedProposal } from "./governed-proposal.ts";
import type { WorkflowDeps } from "./deps.ts";

/** The door merge suggestions are filed through (its approval runs `reaskHook`). */
export const MERGE_DOOR = "workflow:case_merge_suggested";

/** Files a suggestion when the run's subject matches a case closed inside the window; returns the proposal id. */
export async function suggestMerge(tx: Exec, d: WorkflowDeps, run: RunRow, o: { mergedInto?: string; now: string }): Promise<number | undefined> {
  // One question per case: a later vendor merge of a case already suggested files nothing more.
  if (!run.subjectRef || await hasMergeSuggestion(tx, run.id)) return undefined;
  const since = new Date(Date.parse(o.now) - d.reaskWindowDays * 86_400_000).toISOString();
  const prior = await recentClosedBySubject(tx, run.subjectRef, since, run.id);
  if (!prior) return undefined;
  const basis = o.mergedInto !== undefined && prior.caseJson?.case_id === o.mergedInto ? "crm_merge" : "subject_match";
  const { id } = await fileGovernedProposal(tx, { audit: d.audit, policy: d.policy, now: o.now }, {
    door: MERGE_DOOR, origin: "operator", title: "case_merge_suggested",
    content: `case_merge_suggested: ${run.caseRef} may re-ask ${prior.caseRef} (same hashed subject, closed within ${d.reaskWindowDays} days; basis ${basis}). ` +
      "Approving records a re-ask on the new run.",
  });
  await insertMergeSuggestion(tx, { proposalId: id, runId: run.id, priorRunId: prior.id, basis, createdAt: o.now });
  return id;
}

/**
 * A vendor merge that arrives after the suggestion was filed (SPEC §6: `source: crm_merge` when derived from a merge).
 * When the run was merged into the very case the suggestion matched, a pending suggestion takes the `crm_merge` basis
 * (its approval then emits that source), and an already-emitted `case/reask` has its `source` amended, with one audit
 * row naming the event and the change. A merge into another case, or a rejected suggestion, changes nothing.
 */
export async function noteLaterMerge(tx: Exec, audit: AuditService, run: RunRow, o: { mergedInto?: string; now: string }): Promise<void> {
  if (o.mergedInto === undefined) return;
  const s = await mergeSuggestionByRun(tx, run.id);
  if (!s || s.basis === "crm_merge" || s.status === "rejected") return;
  const prior = await getRun(tx, s.priorRunId);
  if (prior?.caseJson?.case_id !== o.mergedInto) return;
  await setMergeSuggestionBasis(tx, s.proposalId, "crm_merge");
  if (s.status !== "approved") return;
  const ev = (await listRunEvents(tx, run.id)).find((e) => e.type === "case/reask" && e.payload.proposal_id === s.proposalId);
  if (!ev || ev.payload.source === "crm_merge") return;
  const payload = { ...ev.payload, source: "crm_merge", source_updated_at: o.now };
  await updateEventPayload(tx, ev.id, payload);
  await audit.append(tx, {
    action: "workflow_event_amended", target: `run:${run.id}`,
    detail: { event_id: ev.id, field: "source", from: ev.payload.source, to: "crm_merge", payload_sha256: await sha256Hex(JSON.stringify(payload)) },
  });
}

/** What approving or rejecting a suggestion does. */
export function reaskHook(audit: AuditService): DecisionHook {
  return {
    async approved(tx, p, now) {
      const s = await mergeSuggestionByProposal(tx, p.id);
      if (!s) return { reask: false };
      await decideMergeSuggestion(tx, p.id, "approved");
      const prior = await getRun(tx, s.priorRunId);
      const source = s.basis === "crm_merge" ? "crm_merge" : "subject_match";
      const ev = await emitEvent(tx, audit, {
        runId: s.runId, type: "case/reask", now, payload: { source, prior_run_id: s.priorRunId, prior_case_ref: prior?.caseRef, proposal_id: p.id },
      });
      return { reask: true, run_id: s.runId, source, event_id: ev.event_id };
    },
    async rejected(tx, p) {
      await decideMergeSuggestion(tx, p.id, "rejected");
    },
  };
}
