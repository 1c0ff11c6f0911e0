/**
 * The complaint-lifecycle close gate (SPEC §3): a run closes `closed_solved`
 * only after customer confirmation (a `customer/feedback` event with
 * `solved: true`) or the documented three-attempt exception: three recorded
 * contact attempts with no inbound customer message after them. Only events
 * since the run last (re)opened count.
 */
import type { Exec } from "../store/db.ts";
import { listRunEvents, type EventRow } from "../store/workflow-runs.ts";

/** Attempts that make the exception (SPEC §3: "the documented three-attempt exception"). */
export const REQUIRED_ATTEMPTS = 3;

/** The gate's verdict. */
export type GateVerdict =
  | { ok: true; proof: "customer_confirmed" | "three_attempts" }
  | { ok: false; confirmed: false; unanswered_attempts: number; required_attempts: number };

/** Evaluates the gate over a run's events (pure). */
export function evaluateCloseGate(events: readonly EventRow[]): GateVerdict {
  let start = 0;
  events.forEach((e, i) => {
    if (e.type === "run/opened" || (e.type === "run/transition" && e.payload.to === "open" && e.payload.reopened === true)) start = i;
  });
  const since = events.slice(start);
  if (since.some((e) => e.type === "customer/feedback" && e.payload.solved === true)) return { ok: true, proof: "customer_confirmed" };
  let unanswered = 0;
  for (const e of since) {
    if (e.type === "channel/in") unanswered = 0;
    else if (e.type === "complaint/contact_attempt") unanswered++;
  }
  if (unanswered >= REQUIRED_ATTEMPTS) return { ok: true, proof: "three_attempts" };
  return { ok: false, confirmed: false, unanswered_attempts: unanswered, required_attempts: REQUIRED_ATTEMPTS };
}

/** Reads the run's events and evaluates the gate. */
export async function closeGate(ex: Exec, runId: number): Promise<GateVerdict> {
  return evaluateCloseGate(await listRunEvents(ex, runId));
}
