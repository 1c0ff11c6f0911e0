/**
 * Governed-run states and transitions (SPEC §3: "Governed runs: states and
 * transitions not shown", so they are this project's choice; the table is
 * drawn in src/workflow/README.md). Any other move is refused with 409
 * `illegal_transition`.
 */
import { MemoryError } from "../core/errors.ts";
import type { RunState } from "../store/workflow-runs.ts";

export type { RunState };

/** Active states: the case is being worked. */
export const ACTIVE: readonly RunState[] = ["open", "waiting_customer"];

/** Allowed moves: from → the states it may go to. */
export const TRANSITIONS: Readonly<Record<RunState, readonly RunState[]>> = Object.freeze({
  open: ["waiting_customer", "closed_solved", "merged_away"],
  waiting_customer: ["open", "closed_solved", "merged_away"],
  // Reopening returns a closed run to `open` (and counts it in `reopened`).
  closed_solved: ["open", "merged_away"],
  merged_away: [],
});

/** True when the run is being worked. */
export function isActive(s: RunState): boolean {
  return ACTIVE.includes(s);
}

/** Throws 409 `illegal_transition` unless `from → to` is in the table. */
export function assertTransition(from: RunState, to: RunState, by: string): void {
  if (!TRANSITIONS[from].includes(to)) {
    throw new MemoryError("illegal_transition", `a run in state ${from} cannot move to ${to} (${by})`, { from, to, allowed: [...TRANSITIONS[from]] }, 409);
  }
}
