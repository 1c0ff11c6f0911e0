/**
 * Out-of-vocabulary fallback for the static embedder (SPEC §1: deterministic
 * local embeddings). A word the table lacks (an identifier part, a code, a
 * rare term) is embedded as the signed sum of fixed pseudo-random unit vectors
 * picked by hashing its character n-grams (FNV-1a over code points of
 * `<word>`). Words sharing many n-grams (`kubectl`, `kubectx`) land close;
 * unrelated ones are near-orthogonal. No floating-point function whose result
 * may differ between engines is used (only +, ×, ÷ and sqrt), so the vectors
 * are byte-identical everywhere.
 */

/** Fixed bucket vectors: `buckets` unit rows of length `dim`, from a seeded mulberry32 stream. */
export function createBucketVectors(dim: number, buckets: number, seed: number): Float32Array {
  const out = new Float32Array(dim * buckets);
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let b = 0; b < buckets; b++) {
    let sq = 0;
    for (let d = 0; d < dim; d++) {
      const x = next() * 2 - 1;
      out[b * dim + d] = x;
      sq += x * x;
    }
    const inv = 1 / Math.sqrt(sq);
    for (let d = 0; d < dim; d++) out[b * dim + d] *= inv;
  }
  return out;
}

/** 32-bit FNV-1a over the code points `cps[from..to)`. */
function fnv1a(cps: number[], from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    let c = cps[i];
    // Feed each code point as up to three bytes so astral characters hash distinctly.
    do {
      h = Math.imul(h ^ (c & 0xff), 0x01000193);
      c >>>= 8;
    } while (c > 0);
  }
  return h >>> 0;
}

/** Settings of the fallback, as stored in the table header. */
export interface OovSettings {
  dim: number;
  buckets: number;
  ngramMin: number;
  ngramMax: number;
  /** Length of the returned vector. */
  norm: number;
}

/** The fallback vector of `word` (length `s.norm`), or undefined when it yields no n-gram signal. */
export function oovVector(word: string, bucketVecs: Float32Array, s: OovSettings): Float32Array | undefined {
  const cps = Array.from(`<${word}>`, (ch) => ch.codePointAt(0) as number);
  const sum = new Float64Array(s.dim);
  for (let n = s.ngramMin; n <= s.ngramMax; n++) {
    for (let i = 0; i + n <= cps.length; i++) {
      const h = fnv1a(cps, i, i + n);
      const base = (h & (s.buckets - 1)) * s.dim;
      const sign = h >>> 31 === 1 ? -1 : 1;
      for (let d = 0; d < s.dim; d++) sum[d] += sign * bucketVecs[base + d];
    }
  }
  let sq = 0;
  for (let d = 0; d < s.dim; d++) sq += sum[d] * sum[d];
  if (sq === 0) return undefined;
  const k = s.norm / Math.sqrt(sq);
  return Float32Array.from(sum, (x) => x * k);
}
