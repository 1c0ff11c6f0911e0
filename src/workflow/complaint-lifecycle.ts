/**
 * `POST /workflow/runs/{id}/complaint/lifecycle` (SPEC §3, §4.11): records
 * contact attempts and the customer's confirmation, and moves the run
 * through the confirm gate. Body `{action}`:
 *
 * - `contact_attempt`: one contact attempt without answer (active runs).
 * - `customer_confirmed`: the customer feedback event (`customer/feedback`,
 *   solved-proof deflection).
 * - `closed_solved`: closes through the gate (409 `close_gate_unmet`).
 * - `merged_away`: only after a vendor merge was seen (409 `merge_not_seen`).
 * - `reopened`: a closed run reopens.
 *
 * Moves outside the transition table answer 409 `illegal_transition`.
 */
import { MemoryError } from "../core/errors.ts";
import { listRunEvents, updateRun, type RunPatch } from "../store/workflow-runs.ts";
import { transition } from "./apply-case.ts";
import { closeGate } from "./close-gate.ts";
import { parseWith } from "../core/schema.ts";
import { requireRun, runView, type RunView, type WorkflowDeps } from "./deps.ts";
import { LIFECYCLE_ACTIONS, LifecycleBody, type LifecycleInput } from "./workflow-schema.ts";
import { emitEvent, type PostedEvent } from "./emit-event.ts";
import { assertTransition, isActive } from "./run-states.ts";
import { dueAt } from "./sla.ts";

/** The lifecycle actions. */
export { LIFECYCLE_ACTIONS };

/** One lifecycle action. */
export type LifecycleAction = (typeof LIFECYCLE_ACTIONS)[number];

/** What a lifecycle call did. */
export interface LifecycleResult {
  action: LifecycleAction;
  run: RunView;
  event: PostedEvent;
}

/** Runs one lifecycle action. */
export async function complaintLifecycle(d: WorkflowDeps, runId: number, body: LifecycleInput, o: { actor?: string } = {}): Promise<LifecycleResult> {
  const { action } = parseWith(LifecycleBody, body);
  return await d.db.write(async (tx) => {
    const run = await requireRun(tx, runId);
    const now = d.clock().toISOString();
    const patch: RunPatch = { updatedAt: now };
    let event: PostedEvent;
    const post = (type: "complaint/contact_attempt" | "customer/feedback", payload: Record<string, unknown>) => {
      if (!isActive(run.state)) throw new MemoryError("run_not_active", `run ${run.id} is ${run.state}; ${action} needs an active run`, { state: run.state }, 409);
      return emitEvent(tx, d.audit, { runId: run.id, type, now, actor: o.actor, payload });
    };
    switch (action) {
      case "contact_attempt":
        event = await post("complaint/contact_attempt", { outcome: "no_answer" });
        break;
      case "customer_confirmed":
        // SPEC §6: the customer feedback event counts as solved-proof deflection.
        event = await post("customer/feedback", { solved: true, deflection: true });
        break;
      case "closed_solved": {
        assertTransition(run.state, "closed_solved", "complaint lifecycle");
        const gate = await closeGate(tx, run.id);
        if (!gate.ok) {
          throw new MemoryError("close_gate_unmet", "closed_solved needs the customer's confirmation or three unanswered contact attempts", {
            confirmed: false, unanswered_attempts: gate.unanswered_attempts, required_attempts: gate.required_attempts,
          }, 409);
        }
        event = await transition(tx, d, run, "closed_solved", patch, { closedAt: now }, { by: "complaint_lifecycle", proof: gate.proof }, now, o.actor);
        break;
      }
      case "merged_away": {
        assertTransition(run.state, "merged_away", "complaint lifecycle");
        // SPEC §3: merged_away follows a vendor merge.
        if (typeof run.caseJson?.merged_into !== "string") {
          throw new MemoryError("merge_not_seen", "merged_away follows a vendor merge: no case envelope of this run names merged_into", undefined, 409);
        }
        event = await transition(tx, d, run, "merged_away", patch, { closedAt: now }, { by: "complaint_lifecycle", merged_into: run.caseJson.merged_into }, now, o.actor);
        break;
      }
      case "reopened": {
        if (run.state !== "closed_solved") {
          throw new MemoryError("illegal_transition", `a run in state ${run.state} cannot be reopened (only closed_solved can)`, { from: run.state, to: "open" }, 409);
        }
        event = await transition(tx, d, run, "open", patch, {
          closedAt: null, reopened: run.reopened + 1, activeSince: now, dueAt: dueAt(run.slaClass, now), dueEmittedAt: null,
        }, { by: "complaint_lifecycle", reopened: true }, now, o.actor);
        break;
      }
    }
    await updateRun(tx, run.id, patch);
    const fresh = await requireRun(tx, run.id);
    return { action, run: runView(fresh, await listRunEvents(tx, run.id)), event: event! };
  });
}
