/**
 * `INJECTION_POLICY` (SPEC §1 "Trust rules"): what the write doors and the
 * recall door do with a screen verdict. SPEC §1 asks that the policy stay at
 * `quarantine` for the "stored flagged, excluded from retrieval until a
 * human reviews it" behaviour; the other two values are this module's
 * choice, documented in `README.md`:
 *
 * | policy | write, clean | write, quarantine | write, reject | query, quarantine | query, reject |
 * |---|---|---|---|---|---|
 * | `quarantine` (default) | store | store flagged | store flagged | allow | `query_rejected` |
 * | `reject` | store | refuse | refuse | `query_rejected` | `query_rejected` |
 * | `off` | store | store | store | allow | allow |
 *
 * Under every policy the screen still runs, so the verdict can be shown in
 * the review view and audited.
 */
import type { Verdict } from "./screen.ts";

/** The values `INJECTION_POLICY` accepts. */
export type InjectionPolicy = "quarantine" | "reject" | "off";
/** What a write door does with a screened text. */
export type WriteAction = "store" | "store_flagged" | "refuse";
/** What the recall door does with a screened query. */
export type QueryAction = "allow" | "reject";

/** The compiled default (SPEC §1: keep `quarantine`). */
export const DEFAULT_INJECTION_POLICY: InjectionPolicy = "quarantine";

/** Parses the raw setting: unset or blank gives the default; an unknown value gives null (the config parser refuses boot). */
export function parseInjectionPolicy(raw: string | undefined): InjectionPolicy | null {
  const v = (raw ?? "").trim().toLowerCase();
  if (v === "") return DEFAULT_INJECTION_POLICY;
  return v === "quarantine" || v === "reject" || v === "off" ? v : null;
}

/** The write-door action for a verdict under a policy (table above). */
export function writeAction(verdict: Verdict, policy: InjectionPolicy): WriteAction {
  if (verdict === "clean" || policy === "off") return "store";
  return policy === "reject" ? "refuse" : "store_flagged";
}

/** The recall-door action for a verdict under a policy; `reject` maps to `query_rejected` (SPEC §7). */
export function queryAction(verdict: Verdict, policy: InjectionPolicy): QueryAction {
  if (policy === "off" || verdict === "clean") return "allow";
  if (verdict === "reject") return "reject";
  return policy === "reject" ? "reject" : "allow";
}
