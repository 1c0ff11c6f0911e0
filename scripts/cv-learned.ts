/**
 * A learned linear reranker, cross-validated nested (issue 24 item 5, the SciFact target). Reads the probe cache
 * `scripts/cv-recall.ts --cache FILE` writes (every train query's reranked head with all its features, the fused order
 * behind it and the lexical-only ranking) and, instead of choosing weights from a grid, fits them per training fold:
 *
 * - `ca`: coordinate ascent on training nDCG@10 (Metzler & Croft 2007): lexical fixed at 1, every other weight ≥ 0,
 *   each in turn set to the value of a fixed ladder with the best training mean, rounds until nothing moves; starts from
 *   every weight at 0.25 (not from the served weights: those were chosen on all five folds);
 * - `lr`: pairwise logistic loss over (relevant, non-relevant) pairs of each query's head, each query weighing the
 *   same, with L2 strength λ, weights projected to ≥ 0 (projected gradient descent, fixed steps: deterministic);
 * - feature sets: `base` (the served features: lexical, vector, coverage, title, bigram, proximity), `all` (+ window,
 *   cluster), and `+flat`, which splits the vector feature by the lexical leader's clarity (idea (a): the vector
 *   weight is a + b·flat + c·(1 − flat), flat = the second-best lexical score over the best, so the vector leg
 *   counts more when the lexical top is flat and less when one hit stands out); `+new` adds the offline candidate
 *   features of `scripts/cv-features.ts` (rm3, sentmax, titlebm, first: run it on the cache first); `+fused` the
 *   candidate's fused rank as 60 / (60 + rank) (a diagnostic only, in no configuration); `+lsa` / `+ppmi` the
 *   corpus-adapted embeddings' cosines of `scripts/cv-corpusvec.ts` (the pre-registered experiment: run
 *   `--configs ca-base,ca-base+lsa,ca-base+ppmi` on its output);
 * - `ca-bag`: the mean of the `ca` weights fitted on each leave-one-fold-out subset of the training folds.
 *
 * Nested: per outer fold, the configuration (learner × feature set × λ) is chosen by leave-one-fold-out inside the
 * four training folds, refitted on all four and scored on the held-out fold. Every configuration's own out-of-fold
 * figure is printed too, but the nested one is the estimate (the others are chosen on the held-out folds).
 *
 *   npx tsx scripts/cv-learned.ts FILE [--configs ca-base,lr-all-1]
 */
import { readFileSync } from "node:fs";
import { ndcgAtK, type Judgments } from "../src/eval/metrics.ts";

interface Head { id: number; features: Record<string, number> }
interface Q { fold: number; j: Judgments; lexical: string[]; head: Head[]; headDoc: string[]; after: string[] }

const args = process.argv.slice(2);
const file = args[0];
const raw = JSON.parse(readFileSync(file, "utf8")) as {
  docOf: [number, string][];
  cs: { fold: number; judgments: [string, number][]; lexical: string[]; probe?: { head: Head[]; tail: number[] } }[];
};
const docOf = new Map(raw.docOf);
const doc = (id: number) => docOf.get(id) ?? `c${id}`;
const qs: Q[] = raw.cs.filter((c) => c.probe).map((c) => ({
  fold: c.fold, j: new Map(c.judgments), lexical: c.lexical, head: c.probe!.head, headDoc: c.probe!.head.map((h) => doc(h.id)),
  after: c.probe!.tail.slice(0, 10).map(doc),
}));

const BASE = ["lexical", "vector", "coverage", "title", "bigram", "proximity"];
const ALL = [...BASE, "window", "cluster"];
/** The lexical leader's clarity: the second-best lexical feature of the head (the best is 1). */
function flatness(q: Q): number {
  const l = q.head.map((h) => h.features.lexical ?? 0).sort((a, b) => b - a);
  return l[0] > 0 ? (l[1] ?? 0) / l[0] : 0;
}
/** Offline candidate features (`scripts/cv-features.ts`): relevance-model feedback, best sentence, title, first sentence. */
const NEW = ["rm3", "sentmax", "titlebm", "first"];
type FeatureSet = string;
function names(fs: FeatureSet): string[] {
  const b = fs.startsWith("all") ? ALL : BASE;
  return [...b, ...(fs.includes("+flat") ? ["vecFlat", "vecSharp"] : []), ...(fs.includes("+new") ? NEW : []), ...(fs.includes("+fused") ? ["fused"] : []),
    ...(fs.includes("+lsa") ? ["lsa"] : []), ...(fs.includes("+ppmi") ? ["ppmi"] : [])];
}
/** Per query and feature set: the head's feature matrix (rows = candidates). */
const cache = new Map<string, Float64Array[]>();
function matrix(fs: FeatureSet): Float64Array[] {
  let m = cache.get(fs);
  if (m) return m;
  const ns = names(fs), K = ns.length;
  m = qs.map((q) => {
    const flat = flatness(q), x = new Float64Array(q.head.length * K);
    q.head.forEach((h, i) => ns.forEach((n, k) => {
      const v = h.features.vector ?? 0;
      x[i * K + k] = n === "vecFlat" ? v * flat : n === "vecSharp" ? v * (1 - flat) : n === "fused" ? 60 / (60 + i) : h.features[n] ?? 0;
    }));
    return x;
  });
  cache.set(fs, m);
  return m;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
/** The served top 10 under weights `w` (score = weighted mean rounded to 1e-6, ties by chunk id, as `rerank.ts`). */
function top10(qi: number, x: Float64Array, w: number[]): string[] {
  const q = qs[qi], K = w.length, n = q.head.length, sum = w.reduce((a, b) => a + b, 0);
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let t = 0;
    for (let k = 0; k < K; k++) t += w[k] * x[i * K + k];
    s[i] = r6(sum > 0 ? t / sum : 0);
  }
  const order = [...Array(n).keys()].sort((a, b) => s[b] - s[a] || q.head[a].id - q.head[b].id);
  const out = order.slice(0, 10).map((i) => q.headDoc[i]);
  for (let i = 0; out.length < 10 && i < q.after.length; i++) out.push(q.after[i]);
  return out;
}
const nd = (qi: number, ranked: string[]) => ndcgAtK(ranked, qs[qi].j, 10) ?? 0;
const meanNdcg = (ids: number[], fs: FeatureSet, w: number[]) => {
  const m = matrix(fs);
  return ids.reduce((a, i) => a + nd(i, top10(i, m[i], w)), 0) / ids.length;
};

const LADDER = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.25, 1.5, 2];
function fitCA(ids: number[], fs: FeatureSet): number[] {
  const K = names(fs).length;
  const w: number[] = names(fs).map((n) => (n === "lexical" ? 1 : 0.25));
  let cur = meanNdcg(ids, fs, w);
  for (let round = 0; round < 6; round++) {
    let moved = false;
    for (let k = 1; k < K; k++) {
      let bestV = w[k], best = cur;
      for (const v of LADDER) {
        if (v === w[k]) continue;
        const t = [...w];
        t[k] = v;
        const m = meanNdcg(ids, fs, t);
        if (m > best + 1e-9) (best = m), (bestV = v);
      }
      if (bestV !== w[k]) (w[k] = bestV), (cur = best), (moved = true);
    }
    if (!moved) break;
  }
  return w;
}

function fitLR(ids: number[], fs: FeatureSet, lambda: number): number[] {
  const K = names(fs).length, m = matrix(fs);
  // Per query: the difference vectors (relevant − non-relevant) of its head, weighted 1 / pairs.
  const diffs: { d: Float64Array; wt: number }[] = [];
  let nq = 0;
  for (const qi of ids) {
    const q = qs[qi], x = m[qi];
    const rel = q.head.map((_, i) => i).filter((i) => (q.j.get(q.headDoc[i]) ?? 0) > 0);
    const non = q.head.map((_, i) => i).filter((i) => (q.j.get(q.headDoc[i]) ?? 0) <= 0);
    if (!rel.length || !non.length) continue;
    nq++;
    const wt = 1 / (rel.length * non.length);
    for (const a of rel) for (const b of non) {
      const d = new Float64Array(K);
      for (let k = 0; k < K; k++) d[k] = x[a * K + k] - x[b * K + k];
      diffs.push({ d, wt });
    }
  }
  const w = new Float64Array(K).fill(0.5);
  const step = 2;
  for (let it = 0; it < 400; it++) {
    const g = new Float64Array(K);
    for (const { d, wt } of diffs) {
      let z = 0;
      for (let k = 0; k < K; k++) z += w[k] * d[k];
      const p = 1 / (1 + Math.exp(z)); // −∂/∂z log(1 + e^−z)
      for (let k = 0; k < K; k++) g[k] -= wt * p * d[k];
    }
    for (let k = 0; k < K; k++) w[k] = Math.max(0, w[k] - step * (g[k] / nq + lambda * w[k]));
  }
  const lex = w[0] > 0 ? w[0] : 1;
  return [...w].map((v) => Math.round((v / lex) * 1e4) / 1e4);
}

interface Config { name: string; fs: FeatureSet; fit: (ids: number[]) => number[] }
const CONFIGS: Config[] = [];
for (const fs of ["base", "all", "base+flat", "all+flat"] as FeatureSet[]) {
  CONFIGS.push({ name: `ca-${fs}`, fs, fit: (ids) => fitCA(ids, fs) });
  for (const l of [0.001, 0.01, 0.1]) CONFIGS.push({ name: `lr-${fs}-${l}`, fs, fit: (ids) => fitLR(ids, fs, l) });
}
// Bagged coordinate ascent: the mean of the weights fitted on each leave-one-fold-out subset of the training folds
// (a variance cut: one fit follows its training queries' noise).
for (const fs of ["base", "all", "all+new"]) CONFIGS.push({ name: `ca-bag-${fs}`, fs, fit: () => [] });
CONFIGS.push({ name: "ca-all+new", fs: "all+new", fit: (ids) => fitCA(ids, "all+new") });
for (const fs of ["base+lsa", "base+ppmi"]) CONFIGS.push({ name: `ca-${fs}`, fs, fit: (ids) => fitCA(ids, fs) });
const only = args.includes("--configs") ? args[args.indexOf("--configs") + 1].split(",") : undefined;
const configs = only ? CONFIGS.filter((c) => only.includes(c.name)) : CONFIGS;

const folds = [...new Set(qs.map((q) => q.fold))].sort((a, b) => a - b);
const inFolds = (fs: number[]) => qs.map((_, i) => i).filter((i) => fs.includes(qs[i].fold));
const lexOf = (ids: number[]) => ids.reduce((a, i) => a + nd(i, qs[i].lexical.slice(0, 10)), 0) / ids.length;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
const f4 = (x: number) => x.toFixed(4);

/** Memoised fit: (config, training folds) → weights. */
const fits = new Map<string, number[]>();
const fitOn = (c: Config, train: number[]): number[] => {
  if (c.name.startsWith("ca-bag-") && train.length > 1) {
    const one = CONFIGS.find((x) => x.name === `ca-${c.fs}`)!;
    const ws = train.map((g) => fitOn(one, train.filter((f) => f !== g)));
    return ws[0].map((_, k) => Math.round(mean(ws.map((w) => w[k])) * 1e4) / 1e4);
  }
  const key = `${c.name}|${train.join(",")}`;
  let w = fits.get(key);
  if (!w) fits.set(key, (w = c.fit(inFolds(train))));
  return w;
};
const gainOn = (c: Config, train: number[], test: number) => {
  const ids = inFolds([test]);
  return meanNdcg(ids, c.fs, fitOn(c, train)) - lexOf(ids);
};

const cpu0 = process.cpuUsage();
console.log(`${qs.length} queries, ${folds.length} folds, ${configs.length} configurations`);
const rows = folds.map((k) => {
  const train = folds.filter((f) => f !== k);
  const inner = configs.map((c) => mean(train.map((g) => gainOn(c, train.filter((f) => f !== g), g))));
  const pickI = inner.reduce((b, x, i) => (x > inner[b] + 1e-12 ? i : b), 0);
  const each = configs.map((c) => gainOn(c, train, k));
  const ids = inFolds([k]);
  return { fold: k, lex: lexOf(ids), each, inner, pick: pickI, nested: each[pickI] };
});
console.log("\n| fold | lexical-only | nested choice (configuration, its weights) | nested nDCG@10 | gain |");
console.log("|---|---|---|---|---|");
for (const r of rows) {
  const c = configs[r.pick], w = fitOn(c, folds.filter((f) => f !== r.fold));
  const ws = names(c.fs).map((n, i) => `${n} ${w[i]}`).join(", ");
  console.log(`| ${r.fold} | ${f4(r.lex)} | ${c.name}: ${ws} | ${f4(r.lex + r.nested)} | ${f4(r.nested)} |`);
}
const g = rows.map((r) => r.nested);
console.log(`nested out-of-fold gain: mean ${f4(mean(g))} ± ${f4(sd(g))} (min ${f4(Math.min(...g))}, max ${f4(Math.max(...g))}); lexical-only ${f4(mean(rows.map((r) => r.lex)))} ± ${f4(sd(rows.map((r) => r.lex)))}`);
console.log("\nEach configuration out of fold (not an estimate: choosing among these rows would be choosing on held-out folds):");
configs.forEach((c, i) => {
  const e = rows.map((r) => r.each[i]);
  console.log(`  ${c.name}: ${f4(mean(e))} ± ${f4(sd(e))} (min ${f4(Math.min(...e))}); inner mean ${f4(mean(rows.map((r) => r.inner[i])))}`);
});
console.log("Per fold, each configuration's out-of-fold gain [its leave-one-fold-out gain inside the training folds]:");
for (const r of rows) console.log(`  fold ${r.fold}: ${configs.map((c, i) => `${c.name} ${f4(r.each[i])} [${f4(r.inner[i])}]`).join(", ")}`);
console.log("\nEach configuration's weights fitted on each outer fold's four training folds:");
for (const c of configs) for (const k of folds) {
  const w = fitOn(c, folds.filter((f) => f !== k));
  console.log(`  ${c.name} without fold ${k}: ${names(c.fs).map((n, i) => `${n} ${w[i]}`).join(", ")}`);
}
for (const c of configs) {
  const w = fitOn(c, folds);
  console.log(`all folds ${c.name}: ${names(c.fs).map((n, i) => `${n} ${w[i]}`).join(", ")} → gain ${f4(meanNdcg(inFolds(folds), c.fs, w) - lexOf(inFolds(folds)))}`);
}
const u = process.cpuUsage(cpu0);
console.log(`CPU ${((u.user + u.system) / 1e6).toFixed(1)} s`);
