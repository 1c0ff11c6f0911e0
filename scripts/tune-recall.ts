/**
 * Recall tuning on the train splits (SciFact train, LoCoMo dev): loads each
 * corpus once into a temporary store through the bulk ingest door, then
 * scores every parameter variant through the served recall pipeline
 * (`memory.recall`), so the figures are exactly what `cairn eval` reports.
 *
 *   npx tsx scripts/tune-recall.ts [--variants '[{"name":"x","params":{...},"graph":true}]'] [--skip-locomo] [--skip-scifact] [--window 1,1] [--turn-only]
 *
 * LoCoMo goes through the conversation door (`--turn-only`: the bulk door, each turn with its previous turn).
 *
 * A variant may also set `bm25` ({k1, b, titleWeight}) for the lexical leg.
 * Without --variants it scores the served defaults and the lexical-only and
 * vector-only presets. Skips with a message when ../shared/data is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { loadBeir } from "../src/eval/beir.ts";
import { loadLocomo } from "../src/eval/locomo.ts";
import { evalBeir, evalLocomo, type EvalStore } from "../src/eval/recall-eval.ts";
import { modeParams } from "../src/eval/recall-modes.ts";
import type { Memory } from "../src/memory.ts";
import type { RecallParams } from "../src/recall/recall-params.ts";
import { DEFAULT_BM25_PARAMS } from "../src/lexical/bm25-params.ts";
import type { Bm25Params } from "../src/lexical/bm25-scorer.ts";
import { openMemoryForRuntime } from "../src/server.ts";

// `--window 1,1`: turns before and after each LoCoMo turn that its chunk carries (the conversation door's window).
const windowArg = (process.argv.includes("--window") ? process.argv[process.argv.indexOf("--window") + 1] : "1,1").split(",").map(Number);
const window = { before: windowArg[0], after: windowArg[1] };
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
// ../shared/data beside the checkout; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const DATA = process.env.CAIRN_SHARED_DATA ?? [resolve(ROOT, "../shared/data"), resolve(ROOT, "../../shared/data")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data");
const args = process.argv.slice(2);
const option = (n: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
interface Variant { name: string; params?: Partial<RecallParams>; graph?: boolean; bm25?: Partial<Bm25Params> }

if (!existsSync(join(DATA, "scifact/corpus.jsonl")) || !existsSync(join(DATA, "locomo/locomo-dev.json"))) {
  console.log("skipped: ../shared/data/scifact or ../shared/data/locomo is absent");
  process.exit(0);
}
const variants: Variant[] = option("--variants") ? JSON.parse(option("--variants")!) : [
  { name: "served (fused)" }, { name: "lexical only", ...modeParams("lexical") }, { name: "vector only", ...modeParams("vector") },
];

/** Stores built once per corpus and reused by every variant: a replayed ingest returns the first run's ids. */
function reusable(base: RecallParams) {
  const slots: { memory: Memory; batches: number[][] }[] = [];
  const dirs: string[] = [];
  let next = 0;
  let variant: Variant = { name: "" };
  const apply = (m: Memory) => {
    m.recallEngine.params = { ...base, ...(variant.params ?? {}) };
    // `bm25` varies the lexical leg's k1, b and title weight (src/lexical/bm25-params.ts).
    const lexical = m.recallEngine.index.lexical as { params?: Bm25Params };
    if ("params" in lexical) lexical.params = { ...DEFAULT_BM25_PARAMS, ...(variant.bm25 ?? {}) };
  };
  return {
    setVariant(v: Variant) {
      variant = v;
      next = 0;
      for (const s of slots) apply(s.memory);
    },
    async open(): Promise<EvalStore> {
      const i = next++;
      if (!slots[i]) {
        const dir = mkdtempSync(join(tmpdir(), "cairn-tune-"));
        dirs.push(dir);
        const memory = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000" }));
        slots[i] = { memory, batches: [] };
      }
      const slot = slots[i];
      apply(slot.memory);
      let call = 0;
      const store: EvalStore = {
        async ingest(docs) {
          const k = call++;
          if (!slot.batches[k]) slot.batches[k] = (await slot.memory.ingestBatch({ items: docs.map((d) => ({ title: d.title, content: d.content })) })).items.map((r) => r.id);
          return slot.batches[k];
        },
        async ingestConversation(session, turns) {
          const k = call++;
          if (!slot.batches[k]) slot.batches[k] = (await slot.memory.ingestConversation({ session, turns: [...turns] }, { window })).turns.map((t) => t.id ?? -1);
          return slot.batches[k].map((id) => (id < 0 ? undefined : id));
        },
        async recall(query, limit) {
          const r = await slot.memory.recall({ query, limit, graph: variant.graph ?? true });
          return { ids: (r.hits as { id: number }[]).map((h) => h.id), abstained: r.decision === "low_confidence" };
        },
        async close() {},
      };
      if (args.includes("--turn-only")) delete store.ingestConversation;
      return store;
    },
    async dispose() {
      for (const s of slots) await s.memory.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}

const read = (p: string) => readFileSync(join(DATA, p), "utf8");
const scifact = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
const locomo = loadLocomo(read("locomo/locomo-dev.json"), { previousTurn: !args.includes("--turn-only") });
const { DEFAULT_RECALL_PARAMS } = await import("../src/recall/recall-params.ts");
const sf = reusable(DEFAULT_RECALL_PARAMS);
const lc = reusable(DEFAULT_RECALL_PARAMS);
const f4 = (x: number) => x.toFixed(4);
console.log("| variant | SciFact nDCG@10 | SciFact R@10 | SciFact abstained | LoCoMo R@10 | LoCoMo R@5 | LoCoMo abstained | cat-5 abstained | SciFact p50/p95 ms | LoCoMo R@10 by category |");
console.log("|---|---|---|---|---|---|---|---|---|---|");
for (const v of variants) {
  sf.setVariant(v);
  lc.setVariant(v);
  const a = args.includes("--skip-scifact") ? undefined : await evalBeir(scifact, () => sf.open());
  const b = args.includes("--skip-locomo") ? undefined : await evalLocomo(locomo, () => lc.open());
  const cats = b ? Object.entries(b.byCategory ?? {}).map(([c, x]) => `${c}:${f4(x.recall10)}`).join(" ") : "";
  console.log(`| ${v.name} | ${a ? f4(a.ndcg10) : "–"} | ${a ? f4(a.recall10) : "–"} | ${a ? `${a.abstained}/${a.queries}` : "–"} | ${b ? f4(b.recall10) : "–"} | ${b ? f4(b.recall5) : "–"} | ${b ? `${b.abstained}/${b.queries}` : "–"} | ${b ? `${b.adversarial!.abstained}/${b.adversarial!.queries}` : "–"} | ${a ? `${a.queryMsP50} / ${a.queryMsP95}` : "–"} | ${cats} |`);
}
await sf.dispose();
await lc.dispose();
