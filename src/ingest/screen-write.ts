/**
 * The injection screen at the write path (SPEC §1 Trust rules, §3): one
 * seam for every door. What a verdict does is the policy table of
 * `src/hygiene/injection-policy.ts`: under the default `quarantine` a
 * Quarantine or Reject verdict stores the entry flagged (excluded from
 * retrieval until a human releases it); `reject` refuses it; `off` stores it.
 * When the optional local classifier is loaded (issue 26) its score is merged
 * in; it can only move a verdict toward Quarantine or Reject.
 */
import type { InjectionPolicy } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import { writeAction } from "../hygiene/injection-policy.ts";
import { screen, type ScreenResult } from "../hygiene/screen.ts";
import { type InjectionClassifier, withClassifier } from "../screen-model/classifier.ts";

/** The screen decision for one write. */
export interface WriteScreen {
  flagged: boolean;
  result: ScreenResult;
}

const screened = (title: string | undefined, content: string) => (title ? `${title}\n${content}` : content);

function decide(policy: InjectionPolicy, result: ScreenResult): WriteScreen {
  const action = writeAction(result.verdict, policy);
  if (action === "refuse") {
    throw new MemoryError("content_rejected", "content matches blocked prompt-injection patterns", { verdict: result.verdict, reasons: result.reasons }, 400);
  }
  return { flagged: action === "store_flagged", result };
}

/** Screens content (and title) for a write with the rules; throws `content_rejected` (400, this project's code) when refused. */
export function screenWrite(policy: InjectionPolicy, content: string, title?: string): WriteScreen {
  return decide(policy, screen(screened(title, content)));
}

/**
 * Screens several writes with the rules and, when present, the classifier
 * (one batch). A classifier failure at run time leaves the rules verdicts:
 * the rules always decide, the model only adds.
 */
export async function screenWrites(
  policy: InjectionPolicy, classifier: InjectionClassifier | undefined, items: ReadonlyArray<{ content: string; title?: string }>,
  precomputed?: readonly ScreenResult[],
): Promise<WriteScreen[]> {
  const texts = items.map((c) => screened(c.title, c.content));
  // `precomputed`: the rules verdicts of these texts, already computed (src/ingest/text-work.ts, issue 25).
  const rules = precomputed ?? texts.map(screen);
  const probs = classifier && texts.length > 0 ? await classifier.score(texts).catch(() => undefined) : undefined;
  return rules.map((r, i) => decide(policy, probs ? withClassifier(r, probs[i] ?? 0) : r));
}
