/**
 * Retrieval metrics over one ranked list of document ids, as used by the
 * `eval` command (SPEC §4.12) and the lexical benchmarks: recall@k, nDCG@k
 * (trec_eval/BEIR convention: linear gain = judged relevance, discount
 * log2(rank + 1), ideal order from all judged documents) and reciprocal rank.
 * Pure functions; averaging is the caller's (see `meanOf`).
 */

/** Graded judgments of one query: document id → relevance (> 0 is relevant). */
export type Judgments = ReadonlyMap<string, number>;

/** Fraction of the relevant documents found in the first k; undefined when nothing is relevant. */
export function recallAtK(ranked: readonly string[], judgments: Judgments, k: number): number | undefined {
  let relevant = 0;
  for (const rel of judgments.values()) if (rel > 0) relevant++;
  if (relevant === 0) return undefined;
  let found = 0;
  const seen = new Set<string>();
  for (const id of ranked.slice(0, k)) {
    if (seen.has(id)) continue;
    seen.add(id);
    if ((judgments.get(id) ?? 0) > 0) found++;
  }
  return found / relevant;
}

/** nDCG@k with linear gain; undefined when nothing is relevant. A repeated id earns nothing the second time. */
export function ndcgAtK(ranked: readonly string[], judgments: Judgments, k: number): number | undefined {
  const ideal = [...judgments.values()].filter((r) => r > 0).sort((a, b) => b - a).slice(0, k);
  if (ideal.length === 0) return undefined;
  let idcg = 0;
  ideal.forEach((rel, i) => (idcg += rel / Math.log2(i + 2)));
  let dcg = 0;
  const seen = new Set<string>();
  ranked.slice(0, k).forEach((id, i) => {
    if (seen.has(id)) return;
    seen.add(id);
    dcg += (judgments.get(id) ?? 0) / Math.log2(i + 2);
  });
  return dcg / idcg;
}

/** 1 / rank of the first relevant document within the first k (0 when none); undefined when nothing is relevant. */
export function reciprocalRank(ranked: readonly string[], judgments: Judgments, k = Infinity): number | undefined {
  let any = false;
  for (const rel of judgments.values()) if (rel > 0) any = true;
  if (!any) return undefined;
  const n = Math.min(k, ranked.length);
  for (let i = 0; i < n; i++) if ((judgments.get(ranked[i]) ?? 0) > 0) return 1 / (i + 1);
  return 0;
}

/** Mean of the defined values (NaN when there are none). */
export function meanOf(values: ReadonlyArray<number | undefined>): number {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v === undefined) continue;
    sum += v;
    n++;
  }
  return n === 0 ? NaN : sum / n;
}

/** Judgments from a plain list of relevant ids (each relevance 1). */
export function binaryJudgments(relevant: Iterable<string>): Judgments {
  return new Map([...relevant].map((id) => [id, 1]));
}
