/**
 * CPU cost per query of recall variants (issue 24: the cost of a new stage, before/after). Builds the SciFact
 * store once through the bulk door, then runs 300 SciFact queries (the first 300 of train: ../shared/data has no
 * test qrels) through the served `memory.recall`
 * under each variant, three passes each in turn, and prints the CPU time (`process.cpuUsage`, user + system)
 * per query of each pass and their median. Quality is not measured here (timing chooses nothing).
 *
 *   npx tsx scripts/cpu-recall.ts [--variants '[{"name":"x","params":{...}}]']
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { loadBeir } from "../src/eval/beir.ts";
import type { RecallParams } from "../src/recall/recall-params.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const DATA = resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/data");
const args = process.argv.slice(2);
if (!existsSync(join(DATA, "scifact/corpus.jsonl"))) {
  console.log("skipped: ../shared/data is absent");
  process.exit(0);
}
interface Variant { name: string; params?: Partial<RecallParams> }
const variants: Variant[] = args.includes("--variants") ? JSON.parse(args[args.indexOf("--variants") + 1]) : [{ name: "served" }];
const read = (p: string) => readFileSync(join(DATA, p), "utf8");
const set = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
const queries = set.queries.slice(0, 300);
const dir = mkdtempSync(join(tmpdir(), "cairn-cpu-"));
const memory = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000" }));
for (let i = 0; i < set.docs.length; i += 500) {
  await memory.ingestBatch({ items: set.docs.slice(i, i + 500).map((d) => ({ title: d.title.trim() || d.id, content: d.text || d.title || d.id })) });
}
const base = memory.recallEngine.params;
const runs = new Map<string, number[]>(variants.map((v) => [v.name, []]));
// A warm-up (100 queries per variant), then three passes of every variant, interleaved so load drifts hit each alike.
for (const v of variants) {
  memory.recallEngine.params = { ...base, ...(v.params ?? {}) };
  for (const q of queries.slice(0, 100)) await memory.recall({ query: q.text, limit: 10 });
}
for (let pass = 0; pass < 3; pass++) {
  for (const v of variants) {
    memory.recallEngine.params = { ...base, ...(v.params ?? {}) };
    const c0 = process.cpuUsage();
    for (const q of queries) await memory.recall({ query: q.text, limit: 10 });
    const c = process.cpuUsage(c0);
    runs.get(v.name)!.push((c.user + c.system) / 1000 / queries.length);
  }
}
for (const [name, xs] of runs) {
  const sorted = [...xs].sort((a, b) => a - b);
  console.log(`${name}: CPU ${sorted[1].toFixed(2)} ms per query (median of 3; passes ${xs.map((x) => x.toFixed(2)).join(", ")}; ${queries.length} queries)`);
}
await memory.close();
rmSync(dir, { recursive: true, force: true });
