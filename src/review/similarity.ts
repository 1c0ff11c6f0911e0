/**
 * The near-duplicate measure of the consolidation proposer: cosine
 * similarity of term-frequency vectors over the lexical analyzer's terms
 * (NFKC, diacritics folded, stopwords removed, Porter-stemmed). Two chunks
 * of one domain are near-duplicates at or above `NEAR_DUPLICATE_SIMILARITY`
 * (0.9) when each has at least `MIN_TERMS` (3) distinct terms. Candidate
 * pairs are those sharing a term held by at most `MAX_CANDIDATE_DF` (256)
 * chunks of the domain, so the scan stays near-linear.
 */
import { tokenize } from "../lexical/analyzer.ts";

/** Default similarity at or above which two chunks are near-duplicates. */
export const NEAR_DUPLICATE_SIMILARITY = 0.9;
/** Fewer distinct terms than this never count as a near-duplicate. */
export const MIN_TERMS = 3;
/** Terms held by more chunks than this do not generate candidate pairs. */
export const MAX_CANDIDATE_DF = 256;

/** A sparse term-frequency vector with its norm. */
export interface TermVector {
  tf: Map<string, number>;
  norm: number;
}

/** The term vector of a text. */
export function termVector(text: string): TermVector {
  const tf = new Map<string, number>();
  for (const t of tokenize(text)) tf.set(t, (tf.get(t) ?? 0) + 1);
  let sq = 0;
  for (const n of tf.values()) sq += n * n;
  return { tf, norm: Math.sqrt(sq) };
}

/** Cosine similarity of two term vectors, rounded to 4 places. */
export function cosine(a: TermVector, b: TermVector): number {
  if (a.norm === 0 || b.norm === 0) return 0;
  const [small, big] = a.tf.size <= b.tf.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [t, n] of small.tf) dot += n * (big.tf.get(t) ?? 0);
  return Math.round((dot / (a.norm * b.norm)) * 1e4) / 1e4;
}

/** Pairs `[i, j, similarity]` (i < j, indexes into `docs`) at or above `threshold`. */
export function nearDuplicatePairs(docs: readonly TermVector[], threshold: number): [number, number, number][] {
  const postings = new Map<string, number[]>();
  docs.forEach((d, i) => {
    if (d.tf.size < MIN_TERMS) return;
    for (const t of d.tf.keys()) {
      const p = postings.get(t);
      if (p) p.push(i);
      else postings.set(t, [i]);
    }
  });
  const out: [number, number, number][] = [];
  for (let i = 0; i < docs.length; i++) {
    if (docs[i].tf.size < MIN_TERMS) continue;
    const cands = new Set<number>();
    for (const t of docs[i].tf.keys()) {
      const p = postings.get(t)!;
      if (p.length > MAX_CANDIDATE_DF) continue;
      for (const j of p) if (j > i) cands.add(j);
    }
    for (const j of [...cands].sort((a, b) => a - b)) {
      const s = cosine(docs[i], docs[j]);
      if (s >= threshold) out.push([i, j, s]);
    }
  }
  return out;
}
