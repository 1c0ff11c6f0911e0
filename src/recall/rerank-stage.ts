/**
 * The rerank tier (SPEC §1 step 5): the top 50 fused candidates are scored
 * by the built-in feature reranker (src/recall/rerank.ts) or, when one is
 * configured, blended with an ONNX cross-encoder; the head is reordered by
 * that score and the tail keeps its fused order below it. Any failure keeps
 * the fused order (the tier fails open).
 */
import type { Analyzer } from "../lexical/analyzer.ts";
import type { LexicalIndex } from "../lexical/lexical-index.ts";
import { fetchChunks } from "../store/chunk-reader.ts";
import type { RankedHit } from "./format-hits.ts";
import { maxFusedScore } from "./fusion.ts";
import type { CrossScorer } from "./ports.ts";
import type { RecallDeps } from "./recall-deps.ts";
import { rerankScore, type RerankQuery } from "./rerank.ts";

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Builds the per-query reranker context from the analyzed query and the two legs' lists. */
export function rerankQuery(
  lexical: LexicalIndex, analyzer: Analyzer, text: string, lex: readonly { score: number }[], vec: readonly { score: number }[],
  vecFloorRank = vec.length,
): RerankQuery {
  const seq = analyzer.analyze(text).sequence;
  const unique = [...new Set(seq)];
  return {
    sequence: seq.map((t) => lexical.termId(t)),
    terms: unique.map((t) => ({ id: lexical.termId(t), idf: lexical.idf(t) })),
    lexMax: lex[0]?.score ?? 0,
    vecMax: vec[0]?.score ?? 0,
    // The vector feature is scaled between the best cosine and the one at `vecFloorRank` (lower ones: 0).
    vecMin: vec[Math.min(vec.length, Math.max(1, vecFloorRank)) - 1]?.score ?? 0,
  };
}

/** Reranks the head of `ranked` (fused order in); returns the served order with scores. */
export async function rerankHead(
  d: RecallDeps, query: string, rq: RerankQuery, ranked: RankedHit[],
  scores: {
    lexical: Map<number, number>; vector: Map<number, number>; speaker?: (id: number) => number; date?: (id: number) => number;
    cluster?: ReadonlyMap<number, number>;
  },
  tel: Record<string, number | string>,
): Promise<RankedHit[]> {
  const p = d.params;
  const maxFused = maxFusedScore([p.lexWeight, p.vecWeightAlone, p.prfWeight]);
  const fallback = () => ranked.map((h) => ({ ...h, score: r6(h.fused / maxFused) }));
  try {
    const head = ranked.slice(0, p.rerankWidth);
    for (const h of head) {
      const labels = { speaker: rq.speaker ? scores.speaker?.(h.id) : undefined, date: rq.date ? scores.date?.(h.id) : undefined };
      h.rerank = rerankScore(rq, d.index.lexical.docTerms(h.id), { lexical: scores.lexical.get(h.id), vector: scores.vector.get(h.id), cluster: scores.cluster?.get(h.id), ...labels }, p.rerankWeights, p.rerankMaxTerms, d.probe !== undefined);
      h.score = h.rerank.score;
    }
    if (d.crossEncoder) {
      const cross = await crossScores(d, d.crossEncoder, query, head.map((h) => h.id));
      if (!cross) tel.rerank_failed = 1;
      else head.forEach((h, i) => (h.score = r6((1 - p.crossWeight) * h.score + p.crossWeight * cross[i])));
    }
    d.probe?.({
      query, head: head.map((h) => ({ id: h.id, features: h.rerank!.features ?? {} })), tail: ranked.slice(p.rerankWidth).map((h) => h.id),
      speaker: rq.speaker === true, date: rq.date === true,
    });
    head.sort((a, b) => b.score - a.score || a.id - b.id);
    // The tail keeps its fused order, scaled under the lowest head score.
    const floor = head.length ? head[head.length - 1].score : 1;
    const tail = ranked.slice(p.rerankWidth).map((h) => ({ ...h, score: r6(floor * (h.fused / maxFused)) }));
    return [...head, ...tail];
  } catch {
    tel.rerank_failed = 1;
    return fallback();
  }
}

/**
 * The `cluster` feature (issue 24): each head candidate's cosine with the centroid of the best `seeds` lexical
 * hits' vectors, min-max scaled over the head. Computed only when its weight is on (or a tuning probe listens).
 */
export function clusterScores(d: RecallDeps, lexIds: readonly number[], headIds: readonly number[], seeds = 3): Map<number, number> | undefined {
  const vectors = d.index.vectors;
  if (!vectors || lexIds.length < 2 || !headIds.length || (d.params.rerankWeights.cluster <= 0 && !d.probe)) return undefined;
  const centroid = new Float32Array(vectors.dim);
  for (const id of lexIds.slice(0, seeds)) {
    const v = vectors.get(id);
    if (v) for (let i = 0; i < v.length; i++) centroid[i] += v[i];
  }
  const scored = vectors.scoreIds(centroid, headIds);
  if (!scored.length) return undefined;
  const hi = scored[0].score, lo = scored[scored.length - 1].score;
  return new Map(scored.map((h) => [h.id, hi > lo ? (h.score - lo) / (hi - lo) : 1] as const));
}

/** Cross-encoder scores squashed to [0, 1]; undefined on any failure (the tier fails open). */
async function crossScores(d: RecallDeps, ce: CrossScorer, query: string, ids: number[]): Promise<number[] | undefined> {
  try {
    const chunks = new Map((await fetchChunks(d.db, ids)).map((c) => [c.id, c] as const));
    const docs = ids.map((id) => {
      const c = chunks.get(id);
      return (c ? (c.title ? `${c.title}\n${c.content}` : c.content) : "").slice(0, d.params.rerankMaxChars);
    });
    const raw = await ce.score(query, docs);
    if (raw.length !== docs.length || raw.some((x) => !Number.isFinite(x))) return undefined;
    return raw.map((x) => r6(1 / (1 + Math.exp(-x))));
  } catch {
    return undefined;
  }
}
