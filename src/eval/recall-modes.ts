/**
 * Recall parameter presets for side-by-side evaluation (`cairn eval
 * --mode`): `fused` is the served pipeline; `lexical` and `vector` keep one
 * leg (the other fuses with weight 0 and the reranker reads only that leg's
 * score), with PRF, the graph leg and abstention off, so each figure is that
 * leg's own ranking.
 */
import type { RecallParams } from "../recall/recall-params.ts";
import type { RerankWeights } from "../recall/rerank.ts";

/** Evaluation modes. */
export const EVAL_MODES = ["fused", "lexical", "vector"] as const;
/** One mode. */
export type EvalMode = (typeof EVAL_MODES)[number];

const only = (k: keyof RerankWeights): RerankWeights => ({ lexical: 0, vector: 0, coverage: 0, title: 0, bigram: 0, proximity: 0, speaker: 0, date: 0, window: 0, cluster: 0, [k]: 1 });

/** Parameter overrides for a mode (none for `fused`), and whether the graph leg runs. */
export function modeParams(mode: EvalMode): { params: Partial<RecallParams>; graph: boolean } {
  if (mode === "fused") return { params: {}, graph: true };
  const off = { prfMin: 2, prfMax: 2, abstainBelow: -1 };
  if (mode === "lexical") {
    return { params: { ...off, vecWeightAgree: 0, vecWeightDisagree: 0, vecWeightAlone: 0, vecScanBelow: 0, rerankWeights: only("lexical") }, graph: false };
  }
  return { params: { ...off, lexWeight: 0, vecWeightAgree: 1, vecWeightDisagree: 1, vecWeightAlone: 1, vecScan: "always", rerankWeights: only("vector") }, graph: false };
}
