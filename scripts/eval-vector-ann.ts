/**
 * libSQL DiskANN against the exact scan (docs/benchmarks.md "Vector index", `CAIRN_VECTOR_INDEX`): ingests N SciFact-derived
 * documents (texts replicated and perturbed, `scaleCorpus`, seed 42) through the batch door into a store
 * opened with `CAIRN_VECTOR_INDEX=diskann`, then for SciFact train queries compares the DiskANN top-10 with
 * the exact scan's top-10 (recall@10 of the approximate search), and times both. Prints one table row.
 *
 *   npx tsx scripts/eval-vector-ann.ts [--n 10000] [--queries 300]
 *
 * Skips with a message when ../shared/data/scifact is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { parseConfig } from "../src/config/parse-config.ts";
import { parseJsonl } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";
import { DEFAULT_STATIC_ASSET_PATH, createStaticEmbedder } from "../src/embed/static-embedder.ts";
import { annSearch } from "../src/store/vectors.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data/scifact");
const { values: flags } = parseArgs({ options: { n: { type: "string", default: "10000" }, queries: { type: "string", default: "300" } } });
if (!existsSync(join(DATA, "corpus.jsonl"))) {
  console.log("skipped: ../shared/data/scifact is absent (see ../shared/data/README.md)");
  process.exit(0);
}
const n = Number(flags.n);
const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { title: string; text: string }[];
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title, text: d.text })), n);
const queries = (parseJsonl(readFileSync(join(DATA, "queries.jsonl"), "utf8")) as { text: string }[]).slice(0, Number(flags.queries));

const dir = mkdtempSync(join(tmpdir(), "cairn-ann-"));
try {
  const dbPath = join(dir, "ann.db");
  const memory = await openMemoryForRuntime(parseConfig({
    CAIRN_DB_PATH: dbPath, CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000", CAIRN_VECTOR_INDEX: "diskann",
  }));
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += 250) {
    await memory.ingestBatch({ items: docs.slice(i, i + 250).map((d) => ({ title: d.title, content: d.content })) });
  }
  const ingestS = (performance.now() - t0) / 1000;
  const embedder = createStaticEmbedder(new Uint8Array(readFileSync(join(ROOT, DEFAULT_STATIC_ASSET_PATH))));
  const vectors = memory.recallEngine.index.vectors!;
  const client = memory.db.client;
  let hit = 0;
  const annMs: number[] = [];
  const scanMs: number[] = [];
  for (const q of queries) {
    const [vec] = await embedder.embed([q.text]);
    let t = performance.now();
    const exact = vectors.search(vec, 10).map((s) => s.id);
    scanMs.push(performance.now() - t);
    t = performance.now();
    const approx = new Set((await annSearch(client, vec, 10)).map((s) => s.id));
    annMs.push(performance.now() - t);
    hit += exact.filter((id) => approx.has(id)).length / Math.max(1, exact.length);
  }
  await memory.close();
  const pct = (xs: number[], p: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))].toFixed(2);
  const mib = (statSync(dbPath).size / 2 ** 20).toFixed(0);
  console.log("| docs | ingest with DiskANN s | DB MiB | DiskANN recall@10 vs exact | DiskANN p50/p95 ms | exact scan p50/p95 ms |");
  console.log("|---|---|---|---|---|---|");
  console.log(`| ${n} | ${ingestS.toFixed(1)} | ${mib} | ${(hit / queries.length).toFixed(3)} | ${pct(annMs, 0.5)} / ${pct(annMs, 0.95)} | ${pct(scanMs, 0.5)} / ${pct(scanMs, 0.95)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
