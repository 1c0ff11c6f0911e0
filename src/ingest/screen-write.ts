/**
 * The injection screen at the write path (SPEC §1 Trust rules, §3): one
 * seam for every door. `reject` verdicts are refused; `quarantine` verdicts
 * are stored flagged (excluded from retrieval until a human releases them)
 * under `INJECTION_POLICY=quarantine`, refused under `reject`, and stored
 * unflagged with the verdict recorded under `log`.
 */
import type { InjectionPolicy } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import { screen, type ScreenResult } from "../hygiene/screen.ts";

/** The screen decision for one write. */
export interface WriteScreen {
  flagged: boolean;
  result: ScreenResult;
}

/** Screens content (and title) for a write; throws `content_rejected` when refused. */
export function screenWrite(policy: InjectionPolicy, content: string, title?: string): WriteScreen {
  const result = screen(title ? `${title}\n${content}` : content);
  if (result.verdict === "clean") return { flagged: false, result };
  if (result.verdict === "reject" || policy === "reject") {
    throw new MemoryError("content_rejected", "content matches blocked prompt-injection patterns", { verdict: result.verdict, reasons: result.reasons }, 400);
  }
  return { flagged: policy === "quarantine", result };
}
