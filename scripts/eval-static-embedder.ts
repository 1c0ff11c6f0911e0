/**
 * Vector-only retrieval quality of a static embedding table on SciFact (BEIR
 * layout, read from `../shared/data/scifact` beside the repo): embeds every
 * document and train query, ranks by exact dot product (MatrixIndex) and
 * prints nDCG@10, recall@100, table load time and embedding throughput.
 *
 *   npx tsx scripts/eval-static-embedder.ts [--asset FILE] [--fields title+text|text] [--data DIR]
 *
 * Skips with a message (exit 0) when the data set is absent.
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../src/embed/static-embedder.ts";
import { MatrixIndex } from "../src/vector/matrix-index.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({
  options: {
    asset: { type: "string", default: join(root, DEFAULT_STATIC_ASSET_PATH) },
    fields: { type: "string", default: "title+text" },
    data: { type: "string", default: join(root, "../shared/data/scifact") },
  },
});

const dataDir = resolve(flags.data);
if (!existsSync(join(dataDir, "corpus.jsonl"))) {
  console.log(`SciFact not found at ${dataDir}; skipping`);
  process.exit(0);
}

const readJsonl = <T>(file: string): T[] =>
  readFileSync(join(dataDir, file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as T);
const corpus = readJsonl<{ _id: string; title: string; text: string }>("corpus.jsonl");
const queries = new Map(readJsonl<{ _id: string; text: string }>("queries.jsonl").map((q) => [q._id, q.text]));
const qrels = new Map<string, Map<string, number>>();
for (const line of readFileSync(join(dataDir, "qrels/train.tsv"), "utf8").split("\n").slice(1)) {
  const [qid, did, rel] = line.trim().split("\t");
  if (!qid || !did) continue;
  if (!qrels.has(qid)) qrels.set(qid, new Map());
  qrels.get(qid)!.set(did, Number(rel));
}

const t0 = performance.now();
const bytes = new Uint8Array(readFileSync(resolve(flags.asset)));
const t1 = performance.now();
const c1 = process.cpuUsage();
const embedder = createStaticEmbedder(bytes);
const t2 = performance.now();
const loadCpu = process.cpuUsage(c1);

const docTexts = corpus.map((d) => (flags.fields === "text" ? d.text : `${d.title}\n${d.text}`));
const t3 = performance.now();
const c3 = process.cpuUsage();
const docVecs = await embedder.embed(docTexts);
const t4 = performance.now();
const docCpuMs = (process.cpuUsage(c3).user) / 1000;
const index = new MatrixIndex(embedder.dim, corpus.length);
docVecs.forEach((v, i) => index.add(i, v));

const qids = [...qrels.keys()].filter((q) => queries.has(q));
const t5 = performance.now();
const queryVecs = await embedder.embed(qids.map((q) => queries.get(q)!));
const t6 = performance.now();

let ndcgSum = 0;
let recallSum = 0;
qids.forEach((qid, qi) => {
  const rels = qrels.get(qid)!;
  const hits = index.search(queryVecs[qi], 100).map((h) => corpus[h.id]._id);
  let dcg = 0;
  hits.slice(0, 10).forEach((did, rank) => (dcg += (rels.get(did) ?? 0) / Math.log2(rank + 2)));
  const ideal = [...rels.values()].sort((a, b) => b - a).slice(0, 10);
  const idcg = ideal.reduce((s, r, rank) => s + r / Math.log2(rank + 2), 0);
  ndcgSum += idcg > 0 ? dcg / idcg : 0;
  const relevant = [...rels.entries()].filter(([, r]) => r > 0).map(([d]) => d);
  recallSum += relevant.filter((d) => hits.includes(d)).length / Math.max(1, relevant.length);
});

const words = docTexts.reduce((s, t) => s + t.split(/\s+/).length, 0);
console.log(`embedder     ${embedder.id}`);
console.log(`asset        ${(bytes.length / 1048576).toFixed(2)} MiB, read ${(t1 - t0).toFixed(0)} ms, createStaticEmbedder ${(t2 - t1).toFixed(0)} ms wall / ${(loadCpu.user / 1000).toFixed(0)} ms cpu`);
console.log(`docs         ${corpus.length} (${flags.fields}, ~${Math.round(words / corpus.length)} words each): ${((corpus.length * 1000) / (t4 - t3)).toFixed(0)} docs/s wall, ${((corpus.length * 1000) / docCpuMs).toFixed(0)} docs/s cpu, ${((words * 1000) / docCpuMs / 1e6).toFixed(2)} M words/s cpu`);
console.log(`queries      ${qids.length} train: ${((qids.length * 1000) / (t6 - t5)).toFixed(0)} queries/s`);
console.log(`nDCG@10      ${(ndcgSum / qids.length).toFixed(4)}`);
console.log(`recall@100   ${(recallSum / qids.length).toFixed(4)}`);
