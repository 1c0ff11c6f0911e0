/**
 * Corpus-adapted static embeddings as rerank features, computed offline (issue 24, the SciFact target; the
 * pre-registered experiment; its result is in docs/benchmarks.md "Recall quality"). Learned without labels from the corpus text alone (never
 * queries or qrels), as a store could at ingest, and added to every head candidate of a `cv-recall.ts --cache` file so
 * `scripts/cv-learned.ts` can cross-validate them (`--configs ca-base,ca-base+lsa,ca-base+ppmi`):
 *
 * - `lsa`: randomized truncated SVD (k 150) of the tf-idf term × document matrix (terms of df ≥ 2, weight
 *   (1 + ln tf) · ln(N / df)); a text's vector is Σ_t w(t) · U_k[t] (the fold-in in the space scaled by the singular
 *   values: a corpus document lands on its row of V·S);
 * - `ppmi`: PPMI-SVD word vectors (terms of count ≥ 5, symmetric window ±5 analyzed positions, context-distribution
 *   smoothing α 0.75, k 150, word vector U_k · S^½ unit-normalized); a text's vector is the SIF-weighted sum
 *   (a / (a + p(w)), a = 1e-3) of its words' vectors;
 * - each the cosine of query and candidate, min-max scaled over the 50-deep head (as `vector` and `cluster` in
 *   `src/recall/rerank.ts`).
 *
 * The SVD is Halko, Martinsson & Tropp's: a Gaussian start from `seededRandom(24)`, 10 extra columns, 3 power
 * iterations orthonormalized each time (by the eigenvectors of the Gram matrix), so every run gives the same vectors.
 *
 *   npx tsx scripts/cv-corpusvec.ts IN.json OUT.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createAnalyzer } from "../src/lexical/analyzer.ts";
import { seededRandom } from "../src/eval/scale-corpus.ts";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/data");
const [inFile, outFile] = process.argv.slice(2);
const K = 150, EXTRA = 10, POWER = 3, SEED = 24;

/** A sparse matrix in compressed rows. */
interface Csr { rows: number; cols: number; ptr: Int32Array; idx: Int32Array; val: Float64Array }
/** A · X (rows × l) from X (cols × l), or with `t` Aᵀ · X (cols × l) from X (rows × l); row-major. */
function product(a: Csr, x: Float64Array, l: number, t = false): Float64Array {
  const out = new Float64Array((t ? a.cols : a.rows) * l);
  for (let i = 0; i < a.rows; i++) for (let p = a.ptr[i]; p < a.ptr[i + 1]; p++) {
    const v = a.val[p], j = a.idx[p] * l, o = i * l;
    const [to, from] = t ? [j, o] : [o, j];
    for (let c = 0; c < l; c++) out[to + c] += v * x[from + c];
  }
  return out;
}
const mul = (a: Csr, x: Float64Array, l: number) => product(a, x, l);
const mulT = (a: Csr, y: Float64Array, l: number) => product(a, y, l, true);
/** YᵀY (l × l) of a row-major n × l matrix. */
function gram(y: Float64Array, l: number): Float64Array {
  const g = new Float64Array(l * l), n = y.length / l;
  for (let i = 0; i < n; i++) {
    const o = i * l;
    for (let a = 0; a < l; a++) {
      const v = y[o + a];
      if (v !== 0) for (let b = a; b < l; b++) g[a * l + b] += v * y[o + b];
    }
  }
  for (let a = 0; a < l; a++) for (let b = 0; b < a; b++) g[a * l + b] = g[b * l + a];
  return g;
}
/** Cyclic Jacobi eigen-decomposition of a symmetric l × l matrix: eigenvalues descending, eigenvectors as columns. */
function eig(m: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(m), v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0, diag = 0;
    for (let p = 0; p < l; p++) { diag += a[p * l + p] ** 2; for (let q = p + 1; q < l; q++) off += a[p * l + q] ** 2; }
    if (off <= 1e-22 * diag) break;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) {
      const apq = a[p * l + q];
      if (Math.abs(apq) < 1e-300) continue;
      const theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
      const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      for (let k = 0; k < l; k++) { // rows p, q then columns p, q of a
        const akp = a[k * l + p], akq = a[k * l + q];
        a[k * l + p] = c * akp - s * akq; a[k * l + q] = s * akp + c * akq;
      }
      for (let k = 0; k < l; k++) {
        const apk = a[p * l + k], aqk = a[q * l + k];
        a[p * l + k] = c * apk - s * aqk; a[q * l + k] = s * apk + c * aqk;
      }
      for (let k = 0; k < l; k++) {
        const vkp = v[k * l + p], vkq = v[k * l + q];
        v[k * l + p] = c * vkp - s * vkq; v[k * l + q] = s * vkp + c * vkq;
      }
    }
  }
  const order = [...Array(l).keys()].sort((x, y) => a[y * l + y] - a[x * l + x]);
  const values = Float64Array.from(order, (i) => a[i * l + i]), vectors = new Float64Array(l * l);
  for (let r = 0; r < l; r++) order.forEach((i, c) => (vectors[r * l + c] = v[r * l + i]));
  return { values, vectors };
}
/** Y · W[:, :k] · diag(scale) for row-major Y (n × l), W (l × l). */
function times(y: Float64Array, l: number, w: Float64Array, k: number, scale: Float64Array): Float64Array {
  const n = y.length / l, out = new Float64Array(n * k);
  for (let i = 0; i < n; i++) for (let a = 0; a < l; a++) {
    const v = y[i * l + a];
    if (v !== 0) for (let c = 0; c < k; c++) out[i * k + c] += v * w[a * l + c];
  }
  for (let i = 0; i < n; i++) for (let c = 0; c < k; c++) out[i * k + c] *= scale[c];
  return out;
}
/** An orthonormal basis of Y's columns (Y W Λ^-½ from the Gram matrix's eigenvectors; null directions zeroed). */
function orth(y: Float64Array, l: number): Float64Array {
  const { values, vectors } = eig(gram(y, l), l);
  return times(y, l, vectors, l, values.map((x) => (x > 1e-12 * values[0] ? 1 / Math.sqrt(x) : 0)));
}
/** The k leading left singular vectors (rows × k, row-major) and values of A. */
function rsvd(a: Csr, k: number): { u: Float64Array; s: Float64Array } {
  const l = k + EXTRA, rand = seededRandom(SEED);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const omega = Float64Array.from({ length: a.cols * l }, gauss);
  let q = orth(mul(a, omega, l), l);
  for (let it = 0; it < POWER; it++) q = orth(mul(a, orth(mulT(a, q, l), l), l), l);
  const { values, vectors } = eig(gram(mulT(a, q, l), l), l); // B Bᵀ with B = Qᵀ A
  const u = times(q, l, vectors, k, new Float64Array(k).fill(1)), s = values.slice(0, k).map((x) => Math.sqrt(Math.max(0, x)));
  // Checks: U orthonormal, and ‖Aᵀu_i‖ = σ_i (both exact up to rounding for the basis found).
  const g = gram(u, k), atu = gram(mulT(a, u, k), k);
  let orthErr = 0, sErr = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) orthErr = Math.max(orthErr, Math.abs(g[i * k + j] - (i === j ? 1 : 0)));
  for (let i = 0; i < k; i++) sErr = Math.max(sErr, Math.abs(Math.sqrt(atu[i * k + i]) - s[i]) / s[i]);
  console.log(`  SVD check: max |UᵀU − I| ${orthErr.toExponential(1)}, max relative |‖Aᵀu‖ − σ| ${sErr.toExponential(1)}`);
  return { u, s };
}
function csr(rows: number, cols: number, entries: Map<number, number>[]): Csr {
  const ptr = new Int32Array(rows + 1);
  entries.forEach((e, i) => (ptr[i + 1] = ptr[i] + e.size));
  const idx = new Int32Array(ptr[rows]), val = new Float64Array(ptr[rows]);
  entries.forEach((e, i) => [...e].sort((x, y) => x[0] - y[0]).forEach(([j, v], n) => ((idx[ptr[i] + n] = j), (val[ptr[i] + n] = v))));
  return { rows, cols, ptr, idx, val };
}
const cpuS = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(1);

// The corpus as analyzed terms: title, then abstract.
const an = createAnalyzer();
const corpus = new Map<string, string[]>();
for (const line of readFileSync(join(DATA, "scifact/corpus.jsonl"), "utf8").split("\n")) {
  if (!line.trim()) continue;
  const d = JSON.parse(line) as { _id: string; title: string; text: string };
  corpus.set(d._id, [...an.tokenize(d.title), ...an.tokenize(d.text)]);
}
const docs = [...corpus.values()], N = docs.length;

// (1) LSA.
let t0 = process.cpuUsage();
const df = new Map<string, number>();
for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
const lsaTerms = [...df].filter(([, n]) => n >= 2).map(([t]) => t).sort();
const lsaId = new Map(lsaTerms.map((t, i) => [t, i]));
const idf = (t: string) => Math.log(N / (df.get(t) ?? N));
function tfidf(text: string[]): Map<number, number> {
  const tf = new Map<string, number>();
  for (const t of text) tf.set(t, (tf.get(t) ?? 0) + 1);
  const out = new Map<number, number>();
  for (const [t, f] of tf) { const i = lsaId.get(t); if (i !== undefined) out.set(i, (1 + Math.log(f)) * idf(t)); }
  return out;
}
const termRows = lsaTerms.map(() => new Map<number, number>());
docs.forEach((d, j) => { for (const [i, w] of tfidf(d)) termRows[i].set(j, w); });
const lsa = rsvd(csr(lsaTerms.length, N, termRows), K);
const lsaCpu = process.cpuUsage(t0);
function lsaVec(text: string[]): Float64Array {
  const v = new Float64Array(K);
  for (const [i, w] of tfidf(text)) for (let c = 0; c < K; c++) v[c] += w * lsa.u[i * K + c];
  return v;
}
console.log(`LSA: ${lsaTerms.length} terms × ${N} documents, k ${K}, σ ${lsa.s[0].toFixed(1)} … ${lsa.s[K - 1].toFixed(1)}; CPU ${cpuS(lsaCpu)} s`);

// (2) PPMI-SVD word vectors.
t0 = process.cpuUsage();
const count = new Map<string, number>();
let total = 0;
for (const d of docs) for (const t of d) count.set(t, (count.get(t) ?? 0) + 1), total++;
const ppTerms = [...count].filter(([, n]) => n >= 5).map(([t]) => t).sort();
const ppId = new Map(ppTerms.map((t, i) => [t, i])), V = ppTerms.length;
let pairs = new Uint32Array(1 << 20), np = 0;
for (const d of docs) {
  const ids = d.map((t) => ppId.get(t) ?? -1);
  for (let i = 0; i < ids.length; i++) {
    if (ids[i] < 0) continue;
    for (let j = i + 1; j <= i + 5 && j < ids.length; j++) {
      if (ids[j] < 0) continue;
      if (np === pairs.length) { const g = new Uint32Array(pairs.length * 2); g.set(pairs); pairs = g; }
      pairs[np++] = Math.min(ids[i], ids[j]) * V + Math.max(ids[i], ids[j]);
    }
  }
}
const sorted = pairs.subarray(0, np).sort();
const co = ppTerms.map(() => new Map<number, number>()), rowSum = new Float64Array(V);
for (let p = 0; p < np;) {
  let e = p;
  while (e < np && sorted[e] === sorted[p]) e++;
  const a = Math.floor(sorted[p] / V), b = sorted[p] % V, n = e - p;
  // Symmetric counts: each pair is seen from both of its words (a word with itself twice).
  co[a].set(b, (co[a].get(b) ?? 0) + n); co[b].set(a, (co[b].get(a) ?? 0) + n);
  rowSum[a] += n; rowSum[b] += n;
  p = e;
}
const D = rowSum.reduce((x, y) => x + y, 0);
const ctxAlpha = rowSum.map((x) => x ** 0.75), ctxSum = ctxAlpha.reduce((x, y) => x + y, 0);
let nnz = 0;
for (let a = 0; a < V; a++) for (const [b, n] of co[a]) {
  const pmi = Math.log((n / D) / ((rowSum[a] / D) * (ctxAlpha[b] / ctxSum)));
  if (pmi > 0) co[a].set(b, pmi), nnz++; else co[a].delete(b);
}
const pp = rsvd(csr(V, V, co), K);
const wordVec = new Float64Array(V * K);
for (let i = 0; i < V; i++) {
  let norm = 0;
  for (let c = 0; c < K; c++) norm += (wordVec[i * K + c] = pp.u[i * K + c] * Math.sqrt(pp.s[c])) ** 2;
  for (let c = 0; c < K; c++) wordVec[i * K + c] /= Math.sqrt(norm) || 1;
}
const ppCpu = process.cpuUsage(t0);
function ppmiVec(text: string[]): Float64Array {
  const v = new Float64Array(K);
  for (const t of text) {
    const i = ppId.get(t);
    if (i === undefined) continue;
    const w = 1e-3 / (1e-3 + (count.get(t) ?? 0) / total);
    for (let c = 0; c < K; c++) v[c] += w * wordVec[i * K + c];
  }
  return v;
}
console.log(`PPMI: ${V} terms, ${np} window pairs, ${nnz} positive cells, k ${K}, σ ${pp.s[0].toFixed(1)} … ${pp.s[K - 1].toFixed(1)}; CPU ${cpuS(ppCpu)} s`);

// The features: cosine with the query's vector, min-max scaled over the head.
const cos = (x: Float64Array, y: Float64Array) => {
  let d = 0, a = 0, b = 0;
  for (let c = 0; c < K; c++) (d += x[c] * y[c]), (a += x[c] * x[c]), (b += y[c] * y[c]);
  return a > 0 && b > 0 ? d / Math.sqrt(a * b) : 0;
};
const raw = JSON.parse(readFileSync(inFile, "utf8")) as {
  docOf: [number, string][];
  cs: { probe?: { query: string; head: { id: number; features: Record<string, number> }[] } }[];
};
const docOf = new Map(raw.docOf);
const memo = new Map<string, { lsa: Float64Array; ppmi: Float64Array }>();
const vecs = (id: string) => {
  let v = memo.get(id);
  if (!v) { const d = corpus.get(id) ?? []; memo.set(id, (v = { lsa: lsaVec(d), ppmi: ppmiVec(d) })); }
  return v;
};
for (const c of raw.cs) {
  if (!c.probe) continue;
  const q = an.tokenize(c.probe.query), ql = lsaVec(q), qp = ppmiVec(q);
  const r = c.probe.head.map((h) => { const v = vecs(docOf.get(h.id) ?? ""); return { lsa: cos(ql, v.lsa), ppmi: cos(qp, v.ppmi) }; });
  for (const k of ["lsa", "ppmi"] as const) {
    const lo = Math.min(...r.map((x) => x[k])), hi = Math.max(...r.map((x) => x[k]));
    r.forEach((x) => (x[k] = hi > lo ? (x[k] - lo) / (hi - lo) : 0));
  }
  c.probe.head.forEach((h, i) => Object.assign(h.features, r[i]));
}
writeFileSync(outFile, JSON.stringify(raw));
console.log(`${raw.cs.length} queries; features lsa, ppmi written to ${outFile}`);
