/**
 * The injection screen at the write path (SPEC §1 Trust rules, §3): one
 * seam for every door. What a verdict does is the policy table of
 * `src/hygiene/injection-policy.ts`: under the default `quarantine` a
 * Quarantine or Reject verdict stores the entry flagged (excluded from
 * retrieval until a human releases it); `reject` refuses it; `off` stores it.
 */
import type { InjectionPolicy } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import { writeAction } from "../hygiene/injection-policy.ts";
import { screen, type ScreenResult } from "../hygiene/screen.ts";

/** The screen decision for one write. */
export interface WriteScreen {
  flagged: boolean;
  result: ScreenResult;
}

/** Screens content (and title) for a write; throws `content_rejected` (400, this project's code) when refused. */
export function screenWrite(policy: InjectionPolicy, content: string, title?: string): WriteScreen {
  const result = screen(title ? `${title}\n${content}` : content);
  const action = writeAction(result.verdict, policy);
  if (action === "refuse") {
    throw new MemoryError("content_rejected", "content matches blocked prompt-injection patterns", { verdict: result.verdict, reasons: result.reasons }, 400);
  }
  return { flagged: action === "store_flagged", result };
}
