/**
 * Governed proposals that are not memory (SPEC §4.11 `channel/out`, §6
 * `case_merge_suggested`): a feature registers a hook for the door it files
 * through, and approving or rejecting such a proposal runs the hook inside
 * the decision's transaction instead of promoting a chunk. The digest check,
 * the proposal's move and the `approve`/`reject` audit row are unchanged, so
 * the human review gate is the same gate.
 */
import type { Exec } from "../store/db.ts";
import type { ProposalRow } from "../store/proposals.ts";

/** What a governed door does when a human decides its proposal. */
export interface DecisionHook {
  /** Runs in the approval's transaction; the returned object is the result's `effect` and goes into the audit row. */
  approved(tx: Exec, p: ProposalRow, now: string): Promise<Record<string, unknown>>;
  /** Runs in the rejection's transaction. */
  rejected(tx: Exec, p: ProposalRow, now: string): Promise<void>;
}

/** Hooks by door. */
export type DecisionHooks = Map<string, DecisionHook>;
