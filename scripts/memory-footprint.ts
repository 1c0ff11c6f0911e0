/**
 * Issue 25: the resident bytes of the in-memory recall structures at N documents, measured in this process
 * after a full GC (`node --expose-gc --import tsx scripts/memory-footprint.ts [--docs N] [--root DIR]`;
 * `--root` points at another checkout to compare before/after on the same machine). Builds the lexical index
 * over N SciFact-derived documents (`scaleCorpus`, seed 42), round-trips it through the snapshot file as boot
 * does, and reports heap + array-buffer bytes held by the loaded index, and by the labels of N chunks.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const ROOT = args.includes("--root") ? resolve(args[args.indexOf("--root") + 1]) : HERE;
const DOCS = args.includes("--docs") ? Number(args[args.indexOf("--docs") + 1]) : 20_000;
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");
const used = () => {
  gc!();
  gc!();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const mb = (b: number) => Math.round((b / 2 ** 20) * 10) / 10;

const { parseJsonl } = await import(join(ROOT, "src/eval/beir.ts"));
const { scaleCorpus } = await import(join(ROOT, "src/eval/scale-corpus.ts"));
const { createOramaLexicalIndex } = await import(join(ROOT, "src/lexical/orama-lexical-index.ts"));
const { loadLexicalIndex } = await import(join(ROOT, "src/lexical/load-lexical-index.ts"));
const { decodeSnapshotFile, encodeSnapshotFile } = await import(join(ROOT, "src/lexical/snapshot-file.ts"));
const { RecallIndex, labelsOf } = await import(join(ROOT, "src/recall/recall-index.ts"));

// Labels first, in a clean heap: N chunks' filter labels in the recall index (no vectors, no lexical entries).
const t = "2026-11-25T12:00:00.000Z";
const beforeLabels = used();
const idx = new RecallIndex(undefined, createOramaLexicalIndex(), DOCS + 1024);
for (let i = 1; i <= DOCS; i++) idx.labels.set(i, labelsOf({ domain: i % 3 ? "global" : "pottery", source: "structured", createdAt: t, flagged: false }));
const labels = used() - beforeLabels;

const corpus = parseJsonl(readFileSync(resolve(HERE, "../shared/data/scifact/corpus.jsonl"), "utf8")) as { title?: string; text?: string }[];
let docs: { id: number; title: string; content: string }[] | undefined = scaleCorpus(corpus.map((d) => ({ title: d.title ?? "", text: d.text ?? "" })), DOCS);
let built = createOramaLexicalIndex();
for (const d of docs!) built.add(d);
let file: Uint8Array | undefined = encodeSnapshotFile(built.toJSON());
built = undefined;
docs = undefined;
const base = used();
const loaded = loadLexicalIndex(decodeSnapshotFile(file!));
file = undefined;
const lexical = used() - base;
console.log(JSON.stringify({ root: ROOT, docs: DOCS, lexicalMb: mb(lexical), labelsMb: mb(labels), size: loaded?.size, labelled: idx.labels.size }));
