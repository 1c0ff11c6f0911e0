/**
 * Typed-array memory of a lexical index built by adds (issue 20: what a node following a long ingest holds), in
 * process after a full GC. Run with `node --expose-gc --import tsx scripts/lexical-memory.ts [N]` (N SciFact-derived
 * documents, default 50,000); needs ../shared/data/scifact.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseJsonl } from "../src/eval/beir.ts";
import { scaleCorpus } from "../src/eval/scale-corpus.ts";
import { createOramaLexicalIndex } from "../src/lexical/orama-lexical-index.ts";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/data/scifact/corpus.jsonl");
if (!existsSync(DATA)) {
  console.log("skipped: ../shared/data/scifact is absent (see ../shared/data/README.md)");
  process.exit(0);
}
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const n = Number(process.argv[2] ?? 50_000);
const corpus = parseJsonl(readFileSync(join(DATA), "utf8")) as { title?: string; text?: string }[];
const docs = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), n);
gc();
const m0 = process.memoryUsage();
const index = createOramaLexicalIndex();
const cpu0 = process.cpuUsage();
for (let i = 0; i < docs.length; i++) index.add({ id: i + 1, title: docs[i].title, content: docs[i].content });
const cpu = process.cpuUsage(cpu0);
gc();
const m1 = process.memoryUsage();
const mb = (b: number) => Math.round(b / 1048576);
console.log(JSON.stringify({ docs: n, arrayBuffersMb: mb(m1.arrayBuffers - m0.arrayBuffers), heapUsedMb: mb(m1.heapUsed - m0.heapUsed), cpuS: Math.round((cpu.user + cpu.system) / 1e5) / 10, size: index.size }));
