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

/** The assessment served with provenance. */
export interface QualityAssessment {
  confidence: number;
  recommendation: "return" | "run_prf" | "run_reranker" | "increase_top_k" | "clarify_query";
  signals: { lex_coverage: number; lex_bigram: number; vec_top: number; agreement: number; lex_candidates: number };
}

const r4 = (x: number) => Math.round(x * 1e4) / 1e4;

/** Computes confidence and recommendation. */
export function assessQuality(i: QualityInputs, thresholds: { prfMin: number; prfMax: number; abstainBelow: number }): QualityAssessment {
  const vecNorm = Math.max(0, Math.min(1, (i.vecTop - 0.35) / 0.45));
  const lexPart = i.lexCount > 0 ? i.lexCoverage : 0;
  const confidence = r4(Math.max(0, Math.min(1, 0.6 * lexPart + 0.2 * i.agreement + 0.2 * vecNorm)));
  let recommendation: QualityAssessment["recommendation"] = "return";
  if (confidence < thresholds.abstainBelow) recommendation = "clarify_query";
  else if (confidence < thresholds.prfMax && confidence >= thresholds.prfMin) recommendation = "run_prf";
  else if (i.agreement < 0.1 && i.lexCount > 0) recommendation = "run_reranker";
  else if (i.lexCount === 0 && i.vecTop > 0) recommendation = "increase_top_k";
  return {
    confidence, recommendation,
    signals: { lex_coverage: r4(i.lexCoverage), lex_bigram: r4(i.lexBigram), vec_top: r4(i.vecTop), agreement: r4(i.agreement), lex_candidates: i.lexCount },
  };
}
