/**
 * In-process ingest timing for issue 25 (no HTTP, no rebuild of dist/): N SciFact-derived documents
 * (`scaleCorpus`, seed 42, as `npm run bench`) through `memory.ingestBatch`, 250 per batch, on a temp
 * store with the default static embedder. Prints docs/s and RSS. Where the time goes: profile it: `node --cpu-prof --import tsx scripts/profile-ingest.ts --docs 10000`.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { parseJsonl } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data/scifact");
const args = process.argv.slice(2);
const option = (n: string, d: number) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const DOCS = option("--docs", 10_000);
const BATCH = 250;

const corpus = parseJsonl(readFileSync(join(DATA, "corpus.jsonl"), "utf8")) as { title?: string; text?: string }[];
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
const dir = mkdtempSync(join(tmpdir(), "cairn-prof-"));
const memory = await openMemoryForRuntime(parseConfig({
  CAIRN_DB_PATH: join(dir, "p.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "10000000", CAIRN_MAX_DB_MIB: "1000000",
}));
try {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < docs.length; i += BATCH) {
    await memory.ingestBatch({ items: docs.slice(i, i + BATCH).map((d) => ({ title: d.title, content: d.content })) });
  }
  const s = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  // CPU time is the figure to compare on a shared machine; wall time moves with everyone else's load.
  console.log(JSON.stringify({ docs: DOCS, seconds: Math.round(s * 100) / 100, docsPerS: Math.round(DOCS / s), cpuS: Math.round(cpu * 100) / 100, docsPerCpuS: Math.round(DOCS / cpu), rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) }));
} finally {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
