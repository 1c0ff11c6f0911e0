/**
 * `INJECTION_POLICY` (SPEC §1 "Trust rules"): what the write doors and the
 * recall door do with a screen verdict. SPEC §1 asks that the policy stay at
 * `quarantine` for the "stored flagged, excluded from retrieval until a
 * human reviews it" behaviour; the other two values are this module's
 * choice, documented in `README.md`:
 *
 * | policy | write, clean | write, quarantine | write, reject | query, quarantine | query, reject |
 * |---|---|---|---|---|---|
 * | `quarantine` (default) | store | store flagged | store flagged | allow (`query_rejected` for prompt extraction) | `query_rejected` |
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

/** Families that refuse a query at Quarantine level under the default policy: asking for the hidden prompt is never a search. */
export const QUERY_REFUSED_FAMILIES: readonly string[] = ["prompt_exfiltration"];

/**
 * The recall-door action for a verdict under a policy; `reject` maps to `query_rejected` (SPEC §7). Under the
 * default, a Quarantine-level query is refused only when `reasons` hold a prompt-extraction family (issue 26:
 * 0 of 2,288 real queries and benign prompts carry it; docs/benchmarks.md "Injection screen and PII").
 */
export function queryAction(verdict: Verdict, policy: InjectionPolicy, reasons: readonly string[] = []): QueryAction {
  if (policy === "off" || verdict === "clean") return "allow";
  if (verdict === "reject" || policy === "reject") return "reject";
  return reasons.some((r) => QUERY_REFUSED_FAMILIES.includes(r)) ? "reject" : "allow";
}
