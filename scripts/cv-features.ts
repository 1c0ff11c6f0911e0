/**
 * Candidate rerank features computed offline (issue 24, the SciFact target): adds to every head candidate of a
 * `cv-recall.ts --cache` file features the served reranker does not have, computed from the corpus with the served
 * analyzer, so `scripts/cv-learned.ts` can cross-validate them before anything is built into the index:
 *
 * - `rm3`: relevance-model feedback (RM1 over the best 5 lexical-only hits: Σ_D P(t|D)/5, times idf, the 20 best
 *   terms that are not query terms) — the idf-weighted share of those terms the candidate holds (idea (b), as a
 *   feature rather than a second pass, since the rerank would reorder a second pass's candidates by the query alone);
 * - `sentmax`: the best BM25 (k1 1.2, b 0.75 over sentence lengths) of one sentence of the abstract, over the head's
 *   best (a claim usually matches one sentence; idea (d));
 * - `titlebm`: BM25 of the title alone, over the head's best (idea (d), the title as its own field);
 * - `first`: BM25 of the abstract's first sentence, over the head's best.
 *
 *   npx tsx scripts/cv-features.ts IN.json OUT.json
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createAnalyzer } from "../src/lexical/analyzer.ts";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/data");
const [inFile, outFile] = process.argv.slice(2);
const an = createAnalyzer();
const corpus = new Map<string, { title: string[]; sents: string[][]; all: string[] }>();
const df = new Map<string, number>();
for (const line of readFileSync(join(DATA, "scifact/corpus.jsonl"), "utf8").split("\n")) {
  if (!line.trim()) continue;
  const d = JSON.parse(line) as { _id: string; title: string; text: string };
  const title = an.tokenize(d.title);
  // Sentences: split after . ? ! followed by a space and a capital or digit (abbreviations like "e.g. the" stay joined).
  const sents = d.text.split(/(?<=[.?!])\s+(?=[A-Z0-9(])/).map((s) => an.tokenize(s)).filter((s) => s.length);
  const all = [...title, ...sents.flat()];
  corpus.set(d._id, { title, sents, all });
  for (const t of new Set(all)) df.set(t, (df.get(t) ?? 0) + 1);
}
const N = corpus.size;
const idf = (t: string) => Math.log(1 + (N - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
let sl = 0, sn = 0, tl = 0;
for (const d of corpus.values()) (tl += d.title.length), d.sents.forEach((s) => ((sl += s.length), sn++));
const avgSent = sl / sn, avgTitle = tl / N;
function bm25(q: string[], field: string[], avg: number, k1 = 1.2, b = 0.75): number {
  const tf = new Map<string, number>();
  for (const t of field) tf.set(t, (tf.get(t) ?? 0) + 1);
  let s = 0;
  for (const t of new Set(q)) {
    const f = tf.get(t) ?? 0;
    if (f) s += idf(t) * (f * (k1 + 1)) / (f + k1 * (1 - b + (b * field.length) / avg));
  }
  return s;
}

const raw = JSON.parse(readFileSync(inFile, "utf8")) as {
  docOf: [number, string][];
  cs: { lexical: string[]; probe?: { query: string; head: { id: number; features: Record<string, number> }[] } }[];
};
const docOf = new Map(raw.docOf);
for (const c of raw.cs) {
  if (!c.probe) continue;
  const q = an.tokenize(c.probe.query), qset = new Set(q);
  // RM1 over the best five lexical-only hits.
  const rm = new Map<string, number>();
  const fb = c.lexical.slice(0, 5).map((id) => corpus.get(id)).filter((d) => d !== undefined);
  for (const d of fb) {
    const tf = new Map<string, number>();
    for (const t of d.all) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const [t, f] of tf) if (!qset.has(t)) rm.set(t, (rm.get(t) ?? 0) + f / d.all.length / fb.length);
  }
  const exp = [...rm].map(([t, p]) => [t, p * idf(t)] as const).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
  const expSum = exp.reduce((a, [, w]) => a + w, 0);
  const raws = c.probe.head.map((h) => {
    const d = corpus.get(docOf.get(h.id) ?? "");
    if (!d) return { rm3: 0, sentmax: 0, titlebm: 0, first: 0 };
    const has = new Set(d.all);
    return {
      rm3: expSum > 0 ? exp.reduce((a, [t, w]) => a + (has.has(t) ? w : 0), 0) / expSum : 0,
      sentmax: Math.max(0, ...d.sents.map((s) => bm25(q, s, avgSent))),
      titlebm: bm25(q, d.title, avgTitle),
      first: d.sents.length ? bm25(q, d.sents[0], avgSent) : 0,
    };
  });
  for (const k of ["sentmax", "titlebm", "first"] as const) {
    const mx = Math.max(0, ...raws.map((r) => r[k]));
    raws.forEach((r) => (r[k] = mx > 0 ? r[k] / mx : 0));
  }
  c.probe.head.forEach((h, i) => Object.assign(h.features, raws[i]));
}
writeFileSync(outFile, JSON.stringify(raw));
console.log(`${raw.cs.length} queries, ${N} documents; features rm3, sentmax, titlebm, first written to ${outFile}`);
