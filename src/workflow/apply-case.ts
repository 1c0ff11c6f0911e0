/**
 * Applies a CrmCase envelope (SPEC §2.11, §6 emission ties): opens the run
 * keyed by `case_ref` or updates it, and posts `crm/case/updated` or
 * `crm/case/closed` on it, all in one transaction with the events' audit
 * rows. The same `updated_rev` twice is applied once. A new case may file a
 * merge suggestion (re-ask, `reask.ts`); a case body enters only as a
 * proposal. The vendor's status moves the run only along the transition
 * table: `closed_solved` closes the run only when the close gate is met
 * (otherwise the vendor status is recorded and `close_gate: "unmet"` is
 * answered), `merged_away` follows the vendor merge, `reopened` reopens.
 */
import { MemoryError } from "../core/errors.ts";
import type { Exec } from "../store/db.ts";
import { getRunByCaseRef, getRun, insertRun, updateRun, type RunPatch, type RunRow } from "../store/workflow-runs.ts";
import { closeGate } from "./close-gate.ts";
import { caseRecord, parseCrmCase, type CrmCase } from "./crm-case.ts";
import { runView, type RunView, type WorkflowDeps } from "./deps.ts";
import { emitEvent, type PostedEvent } from "./emit-event.ts";
import { fileGovernedProposal } from "./governed-proposal.ts";
import { noteLaterMerge, suggestMerge } from "./reask.ts";
import { assertTransition, isActive } from "./run-states.ts";
import { dueAt, slaClassOf } from "./sla.ts";

/** The door case bodies are filed through (the solve signal reads their `source`). */
export const CASE_BODY_DOOR = "/workflow/cases";

/** What applying a case did. */
export interface CaseApplied {
  status: "applied" | "unchanged";
  created: boolean;
  run: RunView;
  event?: PostedEvent;
  close_gate?: "met" | "unmet";
  merge_suggestion_proposal_id?: number;
  body_proposal_id?: number;
}

const ORIGIN = /^[a-z][a-z0-9_.:-]{0,63}$/;

/** Validates and applies one envelope. */
export async function applyCase(d: WorkflowDeps, envelope: unknown, o: { origin: string; actor?: string }): Promise<CaseApplied> {
  if (!ORIGIN.test(o.origin)) throw new MemoryError("invalid_request", "origin must match ^[a-z][a-z0-9_.:-]{0,63}$", { field: "origin" }, 400);
  const c = parseCrmCase(envelope);
  return await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    let run = await getRunByCaseRef(tx, c.case_ref);
    const created = run === undefined;
    if (run && run.caseRev === c.updated_rev) return { status: "unchanged", created: false, run: runView(run) } as CaseApplied;
    const out: Partial<CaseApplied> = {};
    if (!run) run = await openFromCase(tx, d, c, o.origin, now, o.actor);
    const mergedNow = c.status === "merged_away" && run.state !== "merged_away";
    const patch: RunPatch = { caseJson: caseRecord(c), caseRev: c.updated_rev, subjectRef: c.subject_ref, slaClass: slaClassOf(c.priority), updatedAt: now };
    const moved = await moveForCase(tx, d, run, c, patch, now, o.actor);
    if (moved) out.close_gate = moved;
    await updateRun(tx, run.id, patch);
    const type = c.status === "open" ? "crm/case/updated" : "crm/case/closed";
    out.event = await emitEvent(tx, d.audit, {
      runId: run.id, type, now, actor: o.actor,
      payload: { case_ref: c.case_ref, status: c.status, updated_rev: c.updated_rev, updated_at: c.updated_at, origin: o.origin,
        ...(c.merged_into !== undefined ? { merged_into: c.merged_into } : {}), ...(c.reopened ? { reopened: true } : {}) },
    });
    const fresh = (await getRun(tx, run.id))!;
    if (created || mergedNow) {
      const pid = await suggestMerge(tx, d, fresh, { mergedInto: c.merged_into, now });
      if (pid !== undefined) out.merge_suggestion_proposal_id = pid;
      // SPEC §6: a merge learnt after the suggestion was filed still makes the re-ask's source crm_merge.
      else if (mergedNow) await noteLaterMerge(tx, d.audit, fresh, { mergedInto: c.merged_into, now });
    }
    if (c.body_markdown !== undefined) {
      // SPEC §2.11: the body is untrusted and enters only via a proposal; `source` ties it to the case (solve signal).
      const p = await fileGovernedProposal(tx, { audit: d.audit, policy: d.policy, now }, {
        door: CASE_BODY_DOOR, content: c.body_markdown, title: c.title, origin: "imported", source: c.case_ref,
      });
      out.body_proposal_id = p.id;
    }
    return { status: "applied", created, run: runView(fresh), ...out } as CaseApplied;
  });
}

async function openFromCase(tx: Exec, d: WorkflowDeps, c: CrmCase, origin: string, now: string, actor?: string): Promise<RunRow> {
  const sla = slaClassOf(c.priority);
  const id = await insertRun(tx, {
    caseRef: c.case_ref, origin, state: "open", stateJson: { case_ref: c.case_ref, origin }, subjectRef: c.subject_ref, slaClass: sla,
    openedAt: now, dueAt: dueAt(sla, now),
  });
  await emitEvent(tx, d.audit, { runId: id, type: "run/opened", now, actor, payload: { case_ref: c.case_ref, origin } });
  return (await getRun(tx, id))!;
}

/** Moves the run as the vendor status says, along the table; returns the close gate's outcome when a close was asked. */
async function moveForCase(tx: Exec, d: WorkflowDeps, run: RunRow, c: CrmCase, patch: RunPatch, now: string, actor?: string): Promise<"met" | "unmet" | undefined> {
  const to = (state: RunRow["state"], extra: Partial<RunPatch>, payload: Record<string, unknown>) =>
    transition(tx, d, run, state, patch, extra, { ...payload, by: "case_envelope" }, now, actor);
  if (c.status === "merged_away") {
    if (run.state !== "merged_away") await to("merged_away", { closedAt: now }, { merged_into: c.merged_into });
    return undefined;
  }
  if (run.state === "merged_away") {
    assertTransition(run.state, c.status === "closed_solved" ? "closed_solved" : "open", "case envelope");
  }
  if (c.status === "closed_solved") {
    if (!isActive(run.state)) return undefined;
    const gate = await closeGate(tx, run.id);
    if (!gate.ok) return "unmet";
    await to("closed_solved", { closedAt: now }, { proof: gate.proof });
    return "met";
  }
  if (run.state === "closed_solved" && (c.reopened === true || c.status === "open")) {
    await to("open", { closedAt: null, reopened: run.reopened + 1, activeSince: now, dueAt: dueAt(slaClassOf(c.priority), now), dueEmittedAt: null }, { reopened: true });
  }
  return undefined;
}

/** Applies one table move to the patch and posts `run/transition`. */
export async function transition(
  tx: Exec, d: WorkflowDeps, run: RunRow, state: RunRow["state"], patch: RunPatch, extra: Partial<RunPatch>,
  payload: Record<string, unknown>, now: string, actor?: string,
): Promise<PostedEvent> {
  assertTransition(run.state, state, String(payload.by ?? "request"));
  Object.assign(patch, extra, { state });
  return await emitEvent(tx, d.audit, { runId: run.id, type: "run/transition", now, actor, payload: { from: run.state, to: state, ...payload } });
}
