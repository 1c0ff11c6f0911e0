/**
 * The built-in deterministic reranker (SPEC §1 step 5): over the top 50
 * fused candidates it scores query-term coverage, proximity (the tightest
 * window holding every matched term) and phrase match (query bigrams found
 * adjacent). No model; same input, same order. An optional ONNX
 * cross-encoder can replace it (`CAIRN_RERANK_MODEL_DIR`); either fails open.
 */
import type { Analyzer } from "../lexical/analyzer.ts";

/** One reranked candidate. */
export interface RerankScore {
  score: number;
  truncated: boolean;
}

/** Scores one document for a query's analyzed term sequence. */
export function rerankScore(analyzer: Analyzer, queryTerms: readonly string[], text: string, maxChars: number): RerankScore {
  const truncated = text.length > maxChars;
  const doc = analyzer.analyze(truncated ? text.slice(0, maxChars) : text).sequence;
  const q = [...new Set(queryTerms)];
  if (!q.length || !doc.length) return { score: 0, truncated };
  const qset = new Set(q);
  const positions = new Map<string, number[]>();
  doc.forEach((t, i) => {
    if (qset.has(t)) (positions.get(t) ?? positions.set(t, []).get(t)!).push(i);
  });
  const coverage = positions.size / q.length;
  // Proximity: minimal window covering one occurrence of every matched term (sweep over merged positions).
  let proximity = 0;
  if (positions.size > 1) {
    const events = [...positions.entries()].flatMap(([t, ps]) => ps.map((p) => [p, t] as const)).sort((a, b) => a[0] - b[0]);
    const count = new Map<string, number>();
    let best = Infinity, left = 0, have = 0;
    for (let right = 0; right < events.length; right++) {
      const t = events[right][1];
      count.set(t, (count.get(t) ?? 0) + 1);
      if (count.get(t) === 1) have++;
      while (have === positions.size) {
        best = Math.min(best, events[right][0] - events[left][0] + 1);
        const lt = events[left][1];
        count.set(lt, count.get(lt)! - 1);
        if (count.get(lt) === 0) have--;
        left++;
      }
    }
    proximity = Math.min(1, positions.size / best);
  } else if (positions.size === 1) proximity = 1 / q.length;
  // Phrase: adjacent query bigrams present in the document.
  let bigrams = 0, found = 0;
  const docPairs = new Set<string>();
  for (let i = 0; i + 1 < doc.length; i++) docPairs.add(`${doc[i]}\u0000${doc[i + 1]}`);
  for (let i = 0; i + 1 < queryTerms.length; i++) {
    bigrams++;
    if (docPairs.has(`${queryTerms[i]}\u0000${queryTerms[i + 1]}`)) found++;
  }
  const phrase = bigrams ? found / bigrams : coverage;
  return { score: Math.round((0.5 * coverage + 0.3 * proximity + 0.2 * phrase) * 1e6) / 1e6, truncated };
}
