/**
 * The deterministic proposal score (SPEC §1 item 4: "A candidate is scored
 * and filed as a proposal"). Same inputs, same score: no model, no clock.
 * Four weighted components in [0, 1], summed and rounded to 4 places:
 *
 * | component  | weight | value |
 * |---|---|---|
 * | safety     | 0.40 | 1 − injection-screen score |
 * | novelty    | 0.25 | 0 when an identical chunk is already stored, else 1 |
 * | substance  | 0.20 | distinct content terms (analyzer: stemmed, stopwords out) / 8, capped at 1 |
 * | provenance | 0.15 | by origin: human, operator 1; agent 0.7; imported 0.6; model, channel 0.5 |
 *
 * The breakdown is served on the review view, so a reviewer sees why.
 */
import { tokenize } from "../lexical/analyzer.ts";
import type { ScreenResult } from "../hygiene/screen.ts";

/** One scored component. */
export interface ScoreComponent {
  name: "safety" | "novelty" | "substance" | "provenance";
  weight: number;
  value: number;
  contribution: number;
  why: string;
}

/** The score and its breakdown. */
export interface ProposalScore {
  score: number;
  components: ScoreComponent[];
}

/** Component weights (sum 1). */
export const SCORE_WEIGHTS = { safety: 0.4, novelty: 0.25, substance: 0.2, provenance: 0.15 } as const;

/** Provenance value by origin label. */
export const ORIGIN_TRUST: Readonly<Record<string, number>> = { human: 1, operator: 1, agent: 0.7, imported: 0.6, model: 0.5, channel: 0.5 };

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Scores a candidate from its text, its screen result, whether it duplicates a stored chunk, and its origin. */
export function scoreProposal(o: { text: string; screen: ScreenResult; duplicateOf?: number; origin?: string }): ProposalScore {
  const terms = new Set(tokenize(o.text)).size;
  const trust = o.origin !== undefined ? ORIGIN_TRUST[o.origin] ?? 0.5 : 0.5;
  const parts: Omit<ScoreComponent, "contribution">[] = [
    { name: "safety", weight: SCORE_WEIGHTS.safety, value: r4(1 - o.screen.score),
      why: o.screen.reasons.length ? `screen ${o.screen.verdict}: ${o.screen.reasons.join(", ")}` : "screen clean" },
    { name: "novelty", weight: SCORE_WEIGHTS.novelty, value: o.duplicateOf === undefined ? 1 : 0,
      why: o.duplicateOf === undefined ? "no identical stored chunk" : `identical to stored chunk ${o.duplicateOf}` },
    { name: "substance", weight: SCORE_WEIGHTS.substance, value: r4(Math.min(1, terms / 8)), why: `${terms} distinct content terms` },
    { name: "provenance", weight: SCORE_WEIGHTS.provenance, value: trust, why: `origin ${o.origin ?? "unknown"}` },
  ];
  const components = parts.map((p) => ({ ...p, contribution: r4(p.weight * p.value) }));
  return { score: r4(components.reduce((s, c) => s + c.contribution, 0)), components };
}
