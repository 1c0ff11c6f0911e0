/**
 * Public API of the evaluation harness (for the `eval` command, SPEC §4.12,
 * and the benchmark scripts): pure readers that take file text, retrieval
 * metrics, and scoring of any index with `add`/`search` over numeric ids.
 */
export { loadBeir, parseJsonl, parseQrels } from "./beir.ts";
export type { BeirDoc, BeirFiles, BeirQuery, BeirSet } from "./beir.ts";
export { LOCOMO_ADVERSARIAL, LOCOMO_CATEGORIES, loadLocomo, normalizeEvidence } from "./locomo.ts";
export type { LocomoConversation, LocomoDoc, LocomoOptions, LocomoQuestion } from "./locomo.ts";
export { binaryJudgments, meanOf, ndcgAtK, recallAtK, reciprocalRank } from "./metrics.ts";
export type { Judgments } from "./metrics.ts";
export { evaluateBeir, evaluateLocomo, indexBeir, rankBeir, summarize } from "./evaluate-retrieval.ts";
export type { LocomoScores, RankedQuery, RetrievalIndex, RetrievalScores } from "./evaluate-retrieval.ts";
export { scaleCorpus, seededRandom } from "./scale-corpus.ts";
export { beirUnits, locomoUnits, vaultUnits } from "./eval-sets.ts";
export type { EvalQuery, EvalSet, EvalUnit, VaultNote, VaultQuestion } from "./eval-sets.ts";
export type { ScaleSource, ScaledDoc } from "./scale-corpus.ts";
