/**
 * The quality assessment (SPEC §2.3 `quality_assessment`, §2.4
 * `confidence`/`recommendation`): a heuristic, deterministic confidence in
 * [0, 1] from how well the legs matched the query, which gates PRF and
 * drives calibrated abstention.
 */

/** Inputs read off the legs. */
export interface QualityInputs {
  /** Unique analyzed query terms. */
  queryTerms: number;
  /** Idf-weighted share of query terms present anywhere in the index. */
  known: number;
  /** Idf-weighted share of query terms the best lexical hit contains. */
  lexCoverage: number;
  /** Share of adjacent query-term pairs the best lexical hit holds adjacent. */
  lexBigram: number;
  /** Number of lexical candidates. */
  lexCount: number;
  /** Cosine of the best vector hit (0 when no vector leg). */
  vecTop: number;
  /** Overlap of the two legs' top-10 lists, 0–1. */
  agreement: number;
}

/** The signals served in `quality_assessment.signals` (rounded to 4 places). */
export interface QualitySignals {
  lex_coverage: number;
  lex_bigram: number;
  known?: number;
  query_terms?: number;
  vec_top: number;
  agreement: number;
  lex_candidates: number;
}

/** The assessment served with provenance. */
export interface QualityAssessment {
  confidence: number;
  recommendation: "return" | "run_prf" | "run_reranker" | "increase_top_k" | "clarify_query";
  signals: QualitySignals;
  /** Set when the lexical evidence alone rules abstention out (issue 24): the reason. */
  answer_guard?:
    | "lexical_hit_covers_query" | "title_in_query" | "small_store_known_terms_covered" | "small_store_acronyms_held" | "names_store_speaker"
    | "small_store_rare_term_held" | "small_store_legs_agree" | "small_store_vector_standout";
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/**
 * Which fitted confidence model applies: `static` when the vector leg runs on
 * the default static embedder (its cosines were calibrated), `lexical`
 * otherwise (no embedder, or another model whose cosine scale was not).
 */
export type ConfidenceProfile = "static" | "lexical";

const LEXICAL_FEATURES = ["lex_coverage", "lex_bigram", "known", "query_terms"] as const;
const STATIC_FEATURES = [...LEXICAL_FEATURES, "vec_top", "agreement"] as const;

/**
 * The confidence model's features, each in [0, 1] (scripts/calibrate-abstention.ts fits on these).
 * The number of lexical candidates is served as a signal but not used: it grows with the store, so a
 * model fitted on thousands of documents would abstain on a small store's good answers.
 */
export function featuresOf(s: QualitySignals, profile: ConfidenceProfile): number[] {
  const lexical = [s.lex_coverage, s.lex_bigram, s.known ?? 0, Math.min(s.query_terms ?? 0, 10) / 10];
  return profile === "lexical" ? lexical : [...lexical, clamp01(s.vec_top), s.agreement];
}

/** Feature names in `featuresOf` order. */
export const FEATURE_NAMES: Readonly<Record<ConfidenceProfile, readonly string[]>> = { static: STATIC_FEATURES, lexical: LEXICAL_FEATURES };

/**
 * Logistic coefficients (bias first, then `featuresOf` order), fitted by
 * scripts/calibrate-abstention.ts on SciFact train + LoCoMo dev (answerable)
 * against LoCoMo category 5, off-topic and nonsense queries; docs/benchmarks.md
 * "Abstention" has the figures. Confidence is the fitted probability that the
 * query is answerable from this store (the bias is shifted so both
 * profiles abstain at the one served threshold, `abstainBelow` 0.16, at the
 * point where at most 1% of the answerable calibration queries abstain).
 */
export const CONFIDENCE_MODELS: Readonly<Record<ConfidenceProfile, readonly number[]>> = Object.freeze({
  static: Object.freeze([-5.1860, 1.0063, -0.0934, 1.6254, 1.0488, 6.1918, -0.6542]),
  lexical: Object.freeze([-4.3273, 2.7013, 0.3923, 2.6486, 2.3422]),
});

/** Computes confidence and recommendation. */
export function assessQuality(
  i: QualityInputs, thresholds: { prfMin: number; prfMax: number; abstainBelow: number }, profile: ConfidenceProfile,
): QualityAssessment {
  const signals: QualitySignals = {
    lex_coverage: r4(i.lexCoverage), lex_bigram: r4(i.lexBigram), known: r4(i.known), query_terms: i.queryTerms,
    vec_top: r4(i.vecTop), agreement: r4(i.agreement), lex_candidates: i.lexCount,
  };
  const x = featuresOf(signals, profile);
  const w = CONFIDENCE_MODELS[profile];
  let z = w[0];
  for (let j = 0; j < x.length; j++) z += w[j + 1] * x[j];
  const confidence = r4(1 / (1 + Math.exp(-z)));
  let recommendation: QualityAssessment["recommendation"] = "return";
  if (confidence < thresholds.abstainBelow) recommendation = "clarify_query";
  else if (confidence < thresholds.prfMax && confidence >= thresholds.prfMin) recommendation = "run_prf";
  else if (i.agreement < 0.1 && i.lexCount > 0) recommendation = "run_reranker";
  else if (i.lexCount === 0 && i.vecTop > 0) recommendation = "increase_top_k";
  return { confidence, recommendation, signals };
}
