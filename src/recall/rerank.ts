/**
 * The built-in deterministic reranker (SPEC §1 step 5, top 50, no model):
 * a fixed linear model over six features of each candidate, chosen on the
 * train splits (SciFact train, LoCoMo dev; see src/recall/README.md):
 *
 * - `lexical`: its BM25 score over the best BM25 score of the search;
 * - `vector`: its cosine, min-max scaled over the vector leg's list;
 * - `coverage`: the idf-weighted share of query terms the document holds;
 * - `title`: the same share over the title only;
 * - `bigram`: the share of adjacent query-term pairs found adjacent;
 * - `proximity`: the share of query-term pairs found within 8 positions;
 * - `speaker`: 1 when the query names the chunk's speaker or owner (issue 24);
 * - `date`: 1 when a date the query names overlaps the chunk's days (issue 24);
 * - `window`: the idf-weighted share of query terms inside the document's best
 *   window of 16 positions (a claim is usually matched by one sentence of an
 *   abstract, not by terms scattered over it; issue 24);
 * - `cluster`: the cosine of the candidate with the centroid of the best three
 *   lexical hits, min-max scaled over the head (documents like the lexical
 *   leader; issue 24).
 *
 * `speaker` and `date` count (in the score and in its normaliser) only for a
 * query that names a labelled person or a date, so every other query ranks
 * and scores exactly as with the first six features.
 *
 * Term positions come from the lexical index's analyzed sequences (no text
 * is re-analysed). The score is the weighted sum over the weight total, so
 * it lies in [0, 1]. Pure: same inputs, same score.
 */
import type { DocTerms } from "../lexical/lexical-index.ts";

/** Feature weights (see `DEFAULT_RERANK_WEIGHTS`). */
export interface RerankWeights {
  lexical: number;
  vector: number;
  coverage: number;
  title: number;
  bigram: number;
  proximity: number;
  speaker: number;
  date: number;
  window: number;
  cluster: number;
}

/** Weights chosen on the train splits. */
export const DEFAULT_RERANK_WEIGHTS: Readonly<RerankWeights> = Object.freeze({
  lexical: 1, vector: 0.25, coverage: 0.6, title: 0.3, bigram: 0.35, proximity: 0.2, speaker: 0.5, date: 0, window: 0, cluster: 0,
});

/** Per-query context shared by every candidate. */
export interface RerankQuery {
  /** Analyzed query sequence as term ids (undefined: no document has the term). */
  sequence: readonly (number | undefined)[];
  /** Unique query term ids with their idf (unseen terms keep their idf: no candidate can cover them). */
  terms: readonly { id: number | undefined; idf: number }[];
  /** Best BM25 score of the search (0 when the lexical leg found nothing). */
  lexMax: number;
  /** Best and worst cosine of the vector leg's list. */
  vecMax: number;
  vecMin: number;
  /** The query names a labelled speaker/owner (the `speaker` feature counts). */
  speaker?: boolean;
  /** The query names a date (the `date` feature counts). */
  date?: boolean;
}

/** One reranked candidate. */
export interface RerankScore {
  score: number;
  truncated: boolean;
  features: Record<keyof RerankWeights, number>;
}

/** Pairs of query terms within this many positions count as near (`proximity`). */
const NEAR = 8;
/** Width of the `window` feature's window, in analyzed positions (about one sentence of an abstract). */
const WINDOW = 16;

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/**
 * Scores one candidate; `maxTerms` caps the positions read from a long document (then `truncated`).
 * `allFeatures`: compute features whose weight is 0 too (the tuning probe reads them).
 */
export function rerankScore(
  q: RerankQuery, doc: DocTerms | undefined, scores: { lexical?: number; vector?: number; speaker?: number; date?: number; cluster?: number }, w: RerankWeights, maxTerms: number,
  allFeatures = false,
): RerankScore {
  const lexical = q.lexMax > 0 && scores.lexical !== undefined ? scores.lexical / q.lexMax : 0;
  const span = q.vecMax - q.vecMin;
  const vector = scores.vector === undefined ? 0 : Math.max(0, span > 0 ? (scores.vector - q.vecMin) / span : 1);
  const truncated = doc !== undefined && doc.title.length + doc.content.length > maxTerms;
  const pos = positions(q, doc, maxTerms);
  const titleIds = new Set(doc?.title ?? []);
  let idfSum = 0, covered = 0, inTitle = 0;
  for (const t of q.terms) {
    idfSum += t.idf;
    if (t.id !== undefined && pos.has(t.id)) covered += t.idf;
    if (t.id !== undefined && titleIds.has(t.id)) inTitle += t.idf;
  }
  let pairs = 0, adjacent = 0;
  for (let i = 0; i + 1 < q.sequence.length; i++) {
    pairs++;
    const a = pos.get(q.sequence[i]!), b = pos.get(q.sequence[i + 1]!);
    if (a && b && q.sequence[i] !== undefined && q.sequence[i + 1] !== undefined && within(a, b, 1, true)) adjacent++;
  }
  let near = 0, nearPairs = 0;
  for (let i = 0; i < q.terms.length; i++) {
    for (let j = i + 1; j < q.terms.length; j++) {
      nearPairs++;
      const a = pos.get(q.terms[i].id!), b = pos.get(q.terms[j].id!);
      if (a && b && within(a, b, NEAR, false)) near++;
    }
  }
  const features = {
    lexical, vector,
    coverage: idfSum > 0 ? covered / idfSum : 0,
    title: idfSum > 0 ? inTitle / idfSum : 0,
    bigram: pairs ? adjacent / pairs : 0,
    proximity: nearPairs ? near / nearPairs : 0,
    speaker: scores.speaker ?? 0,
    date: scores.date ?? 0,
    // Computed only when it counts (or a tuning probe reads every feature): off by default, see docs/benchmarks.md "Recall quality".
    window: idfSum > 0 && ((w.window ?? 0) > 0 || allFeatures) ? bestWindow(q, pos, WINDOW) / idfSum : 0,
    cluster: scores.cluster ?? 0,
  };
  let total = 0, weights = 0;
  for (const k of Object.keys(features) as (keyof RerankWeights)[]) {
    if ((k === "speaker" && !q.speaker) || (k === "date" && !q.date)) continue;
    total += (w[k] ?? 0) * features[k];
    weights += w[k] ?? 0;
  }
  return { score: r6(weights > 0 ? total / weights : 0), truncated, features };
}

/** Positions of query terms in the title then content sequence (the first `maxTerms` terms). */
function positions(q: RerankQuery, doc: DocTerms | undefined, maxTerms: number): Map<number, number[]> {
  const out = new Map<number, number[]>();
  if (!doc) return out;
  const wanted = new Set<number>();
  for (const t of q.terms) if (t.id !== undefined) wanted.add(t.id);
  let p = 0;
  for (const field of [doc.title, doc.content]) {
    for (let i = 0; i < field.length && p < maxTerms; i++, p++) {
      const id = field[i];
      if (!wanted.has(id)) continue;
      const list = out.get(id);
      if (list) list.push(p);
      else out.set(id, [p]);
    }
  }
  return out;
}

/** The largest idf sum of distinct query terms found together within `width` consecutive positions. */
function bestWindow(q: RerankQuery, pos: ReadonlyMap<number, readonly number[]>, width: number): number {
  const idf = new Map<number, number>();
  for (const t of q.terms) if (t.id !== undefined) idf.set(t.id, t.idf);
  const hits: [number, number][] = [];
  for (const [id, ps] of pos) for (const p of ps) hits.push([p, id]);
  hits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const count = new Map<number, number>();
  let best = 0, sum = 0;
  for (let lo = 0, hi = 0; hi < hits.length; hi++) {
    const id = hits[hi][1];
    const n = count.get(id) ?? 0;
    if (n === 0) sum += idf.get(id) ?? 0;
    count.set(id, n + 1);
    while (hits[hi][0] - hits[lo][0] >= width) {
      const out = hits[lo++][1];
      const m = count.get(out)! - 1;
      count.set(out, m);
      if (m === 0) sum -= idf.get(out) ?? 0;
    }
    if (sum > best) best = sum;
  }
  return best;
}

/** True when some a in `as` and b in `bs` satisfy b − a == gap (ordered) or 0 < |b − a| ≤ gap; both sorted ascending. */
function within(as: readonly number[], bs: readonly number[], gap: number, ordered: boolean): boolean {
  let j = 0;
  for (const a of as) {
    if (ordered) {
      while (j < bs.length && bs[j] < a + gap) j++;
      if (j < bs.length && bs[j] === a + gap) return true;
    } else {
      while (j < bs.length && bs[j] < a - gap) j++;
      for (let k = j; k < bs.length && bs[k] <= a + gap; k++) if (bs[k] !== a) return true;
    }
  }
  return false;
}
