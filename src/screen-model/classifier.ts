/**
 * The classifier port of the injection screen and the one rule that merges
 * its score into a verdict (SPEC §1 Trust rules: verdicts only move from
 * Clean toward Quarantine or Reject). Pure; the ONNX loader lives beside it
 * in `onnx-injection-classifier.ts`.
 */
import type { ScreenResult } from "../hygiene/screen.ts";
import { QUARANTINE_AT, REJECT_AT } from "../hygiene/screen.ts";

/** A loaded classifier: one probability of "injection" per text. */
export interface InjectionClassifier {
  /** Stable identifier, `onnx-injection:<dir name>@<hash>`. */
  readonly id: string;
  /** Which ONNX Runtime build runs it (`node` or `wasm`); absent for fakes built in tests. */
  readonly backend?: string;
  /** Probabilities in [0, 1], same order as `texts`. */
  score(texts: string[]): Promise<number[]>;
}

/** Probability from which the classifier counts as a family (weight 0.5: one strong family). */
export const CLASSIFIER_THRESHOLD = 0.5;
/** The family the classifier adds when it fires. */
export const CLASSIFIER_FAMILY = "classifier";

/**
 * Merges a classifier probability into a rules result: at or above the
 * threshold the `classifier` family adds 0.5 to the score (Quarantine alone;
 * Reject beside a strong rules family). Below it, the result is unchanged,
 * so the classifier can never move a verdict toward Clean.
 */
export function withClassifier(result: ScreenResult, p: number, threshold = CLASSIFIER_THRESHOLD): ScreenResult {
  if (!(p >= threshold)) return result;
  const score = Math.min(1, Math.round((result.score + 0.5) * 100) / 100);
  const verdict = score >= REJECT_AT ? "reject" : score >= QUARANTINE_AT ? "quarantine" : "clean";
  return { verdict, reasons: [...result.reasons, CLASSIFIER_FAMILY].sort(), score };
}
