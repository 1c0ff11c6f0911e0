/**
 * The recall engine's tunable parameters, in one place, chosen on the train
 * splits (SciFact train, LoCoMo dev) — see docs/benchmarks.md "Recall quality". Every
 * stage reads them from here so eval and serving agree.
 */
import { DEFAULT_RERANK_WEIGHTS, type RerankWeights } from "./rerank.ts";

/** Parameters of fusion, PRF, rerank and abstention. */
export interface RecallParams {
  /** Candidates taken from each leg before fusion. */
  legDepth: number;
  /** Fusion weight of the lexical leg. */
  lexWeight: number;
  /** Vector-leg weight when it agrees with the lexical leg (overlap of top-10 ≥ agreeAt). */
  vecWeightAgree: number;
  /** Vector-leg weight when it disagrees. */
  vecWeightDisagree: number;
  /** Overlap fraction of the two legs' top-10 that counts as agreement. */
  agreeAt: number;
  /** Vector-leg weight when the lexical leg found nothing. */
  vecWeightAlone: number;
  /**
   * `rescue`: the vector leg scans the whole store (and enters the fusion with the weights above) only
   * when asked for (`vec`, `hyde`, `source: vector`) or when the lexical leg found fewer than
   * `vecScanBelow` candidates; otherwise it scores the lexical candidates for the rerank and the
   * confidence only. `always`: every query scans and fuses.
   */
  vecScan: "rescue" | "always";
  vecScanBelow: number;
  /** Without a scan, the rerank's vector feature is scaled between the best candidate cosine and the one at this rank. */
  vecFloorRank: number;
  /** Fusion weight of the graph leg. */
  graphWeight: number;
  /** Scale of the graph leg's weight against reranked scores (it enters after the rerank). */
  graphScale: number;
  /** Graph-only chunks of split documents enter below every hit with lexical or vector evidence, unless the question is relational. */
  graphSiblingsBelowEvidence: boolean;
  /** Chunks of one split document kept in place in the ranking (the rest move below the other hits); 0: no cap. */
  docCap: number;
  /** Fusion weight of the PRF-expanded lexical pass. */
  prfWeight: number;
  /** PRF fires when confidence is in [prfMin, prfMax). */
  prfMin: number;
  prfMax: number;
  /** Feedback documents and expansion terms for PRF. */
  prfDocs: number;
  prfTerms: number;
  /** Rerank width (SPEC §1 step 5: top 50). */
  rerankWidth: number;
  /** Feature weights of the built-in reranker. */
  rerankWeights: RerankWeights;
  /** Analyzed terms of a document the built-in reranker reads (longer ones are truncated). */
  rerankMaxTerms: number;
  /** Characters of a document handed to an optional cross-encoder, and its blend weight with the built-in score. */
  rerankMaxChars: number;
  crossWeight: number;
  /** The `speaker` feature of the turns of a second (third, …) person the query names; the subject's is 1. */
  speakerOthers: number;
  /** Confidence below which recall abstains (`decision: low_confidence`). */
  abstainBelow: number;
  /** Served content window and snippet window, in characters. */
  contentWindow: number;
  snippetWindow: number;
  /** Routing threshold on centroid cosine (SPEC §8: 0.55). */
  routeThreshold: number;
}

/** Defaults chosen on the train splits. */
export const DEFAULT_RECALL_PARAMS: Readonly<RecallParams> = Object.freeze({
  legDepth: 100,
  lexWeight: 1,
  vecWeightAgree: 0.5,
  vecWeightDisagree: 0.15,
  agreeAt: 0.2,
  vecWeightAlone: 1,
  vecScan: "rescue",
  vecScanBelow: 1,
  vecFloorRank: 25,
  graphWeight: 0.5,
  graphScale: 1,
  graphSiblingsBelowEvidence: true,
  docCap: 3,
  prfWeight: 0.3,
  prfMin: 0.25,
  prfMax: 0.5,
  prfDocs: 3,
  prfTerms: 8,
  rerankWidth: 50,
  rerankWeights: DEFAULT_RERANK_WEIGHTS,
  rerankMaxTerms: 2000,
  rerankMaxChars: 4000,
  crossWeight: 0.5,
  speakerOthers: 0,
  abstainBelow: 0.16,
  contentWindow: 1200,
  snippetWindow: 240,
  routeThreshold: 0.55,
});
