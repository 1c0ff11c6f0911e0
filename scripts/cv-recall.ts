/**
 * K-fold cross-validation of the reranker's weights (issue 24 item 5). Each
 * corpus is loaded once through the served doors (SciFact: the bulk door;
 * LoCoMo: the conversation door); each query runs once through the served
 * pipeline with a probe that records the reranked head's features and the
 * fused order behind it, and once in lexical-only mode. Every weight vector
 * of the grid is then scored from that cache. Per fold, the weights are
 * chosen on the other folds at the flattest good region — the grid point
 * whose neighbourhood (±1 step on every axis) has the best mean — and scored
 * on the held-out fold beside lexical-only. SciFact: 5 folds over train
 * queries (query index mod 5); LoCoMo: one fold per conversation.
 *
 *   npx tsx scripts/cv-recall.ts [--skip-scifact] [--skip-locomo] [--window 1,1] [--prf off] [--metric r5|r10] [--widths 20,30,50]
 *
 * `--metric` chooses (and scores) LoCoMo by R@5, R@10 (default) or both (two reports from one run);
 * `--locomo-axes '{"speaker":[0,0.5,1,2]}'` replaces LoCoMo's grid (other weights stay at the served values); `--widths` adds the rerank depth as a
 * grid axis (the head is the first `width` fused candidates, the rest keep their fused order; ≤ 50, the
 * width the probe records).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { loadBeir } from "../src/eval/beir.ts";
import { LOCOMO_ADVERSARIAL, loadLocomo } from "../src/eval/locomo.ts";
import { binaryJudgments, ndcgAtK, recallAtK, type Judgments } from "../src/eval/metrics.ts";
import { modeParams } from "../src/eval/recall-modes.ts";
import type { Memory } from "../src/memory.ts";
import type { RerankProbe } from "../src/recall/recall-deps.ts";
import { DEFAULT_RERANK_WEIGHTS, type RerankWeights } from "../src/recall/rerank.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data");
const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
if (!existsSync(join(DATA, "scifact/corpus.jsonl"))) {
  console.log("skipped: ../shared/data is absent");
  process.exit(0);
}
const [before, after] = opt("--window", "1,1").split(",").map(Number);
const prfOff = opt("--prf", "on") === "off";
const locomoMetric = opt("--metric", "r10");
const widths = args.includes("--widths") ? opt("--widths", "50").split(",").map(Number) : undefined;

/** One cached query. */
interface Cached {
  fold: number;
  judgments: Judgments;
  probe?: RerankProbe;
  /** Served ranking without a head (no candidates) and the lexical-only ranking, as doc ids. */
  lexical: string[];
  docOf: Map<number, string>;
}

async function open(): Promise<{ memory: Memory; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-cv-"));
  const memory = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000" }));
  return { memory, dir };
}

async function runQueries(memory: Memory, qs: { text: string; fold: number; judgments: Judgments }[], docOf: Map<number, string>): Promise<Cached[]> {
  const base = memory.recallEngine.params;
  const out: Cached[] = [];
  let probe: RerankProbe | undefined;
  memory.recallEngine.setProbe((p) => void (probe = p));
  const lex = modeParams("lexical").params;
  for (const q of qs) {
    probe = undefined;
    memory.recallEngine.params = { ...base, abstainBelow: -1, ...(prfOff ? { prfMin: 2, prfMax: 2 } : {}) };
    await memory.recall({ query: q.text, limit: 100, graph: false });
    const got = probe;
    memory.recallEngine.params = { ...base, ...lex };
    const r = await memory.recall({ query: q.text, limit: 100, graph: false });
    out.push({ fold: q.fold, judgments: q.judgments, probe: got, lexical: (r.hits as { id: number }[]).map((h) => docOf.get(h.id) ?? `c${h.id}`), docOf });
  }
  memory.recallEngine.params = base;
  memory.recallEngine.setProbe(undefined);
  return out;
}

/** The served order under weights `w`, as doc ids. */
function rank(c: Cached, w: RerankWeights): string[] {
  if (!c.probe) return [];
  const keys = (Object.keys(w) as (keyof RerankWeights)[]).filter((k) => k in DEFAULT_RERANK_WEIGHTS);
  const width = (w as unknown as { width?: number }).width ?? c.probe.head.length;
  const head = c.probe.head.slice(0, width), rest = c.probe.head.slice(width).map((h) => h.id);
  const scored = head.map((h) => {
    let total = 0, sum = 0;
    for (const k of keys) {
      if ((k === "speaker" && !c.probe!.speaker) || (k === "date" && !c.probe!.date)) continue;
      total += w[k] * (h.features[k] ?? 0);
      sum += w[k];
    }
    return { id: h.id, s: Math.round((sum > 0 ? total / sum : 0) * 1e6) / 1e6 };
  });
  scored.sort((a, b) => b.s - a.s || a.id - b.id);
  return [...scored.map((x) => x.id), ...rest, ...c.probe.tail].map((id) => c.docOf.get(id) ?? `c${id}`);
}

type Metric = (ranked: string[], j: Judgments) => number | undefined;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const sd = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));

/** The grid: axes with their steps (lexical fixed at 1). */
function grid(axes: Record<string, number[]>): { w: RerankWeights; at: number[] }[] {
  const names = Object.keys(axes);
  const out: { w: RerankWeights; at: number[] }[] = [];
  const rec = (i: number, at: number[]) => {
    if (i === names.length) {
      const w = { ...DEFAULT_RERANK_WEIGHTS } as RerankWeights;
      names.forEach((n, k) => ((w as unknown as Record<string, number>)[n] = axes[n][at[k]]));
      out.push({ w, at: [...at] });
      return;
    }
    for (let k = 0; k < axes[names[i]].length; k++) rec(i + 1, [...at, k]);
  };
  rec(0, []);
  return out;
}

/** Chooses the point whose ±1 neighbourhood has the best mean (the flattest good region), and the best point. */
function choose(points: { w: RerankWeights; at: number[] }[], values: number[]): { flat: number; best: number } {
  const key = (at: number[]) => at.join(",");
  const byKey = new Map(points.map((p, i) => [key(p.at), i] as const));
  let flat = 0, flatV = -Infinity, best = 0;
  points.forEach((p, i) => {
    if (values[i] > values[best]) best = i;
    const around: number[] = [];
    const rec = (d: number, at: number[]) => {
      if (d === p.at.length) {
        const j = byKey.get(key(at));
        if (j !== undefined) around.push(values[j]);
        return;
      }
      for (const s of [-1, 0, 1]) rec(d + 1, [...at.slice(0, d), p.at[d] + s, ...at.slice(d + 1)]);
    };
    rec(0, [...p.at]);
    const v = mean(around);
    if (v > flatV) flatV = v, flat = i;
  });
  return { flat, best };
}

function crossValidate(name: string, cs: Cached[], metric: Metric, axes: Record<string, number[]>, served: RerankWeights): void {
  const points = grid(axes);
  // Per point, per query: the metric (undefined: unjudged), computed once; folds are means over subsets.
  const per = (w: RerankWeights | "lexical") => cs.map((c) => metric(w === "lexical" ? c.lexical : rank(c, w), c.judgments));
  const table = points.map((p) => per(p.w));
  const lexRow = per("lexical"), servedRow = per(served);
  const avg = (row: (number | undefined)[], keep: (i: number) => boolean) => mean(row.filter((v, i) => v !== undefined && keep(i)) as number[]);
  const folds = [...new Set(cs.map((c) => c.fold))].sort((a, b) => a - b);
  const rows: { lex: number; served: number; flat: number; best: number; w: RerankWeights }[] = [];
  for (const f of folds) {
    const inTrain = (i: number) => cs[i].fold !== f, inTest = (i: number) => cs[i].fold === f;
    const values = table.map((row) => avg(row, inTrain));
    const { flat, best } = choose(points, values);
    rows.push({ lex: avg(lexRow, inTest), served: avg(servedRow, inTest), flat: avg(table[flat], inTest), best: avg(table[best], inTest), w: points[flat].w });
  }
  const f4 = (x: number) => x.toFixed(4);
  console.log(`\n### ${name}: ${folds.length}-fold CV (${cs.length} queries; grid ${points.length} points over ${Object.keys(axes).join(", ")})`);
  console.log("| fold | lexical-only | served defaults | flat-region choice | best-point choice | flat choice: weights |");
  console.log("|---|---|---|---|---|---|");
  rows.forEach((r, i) => console.log(`| ${folds[i]} | ${f4(r.lex)} | ${f4(r.served)} | ${f4(r.flat)} | ${f4(r.best)} | ${Object.keys(axes).map((k) => `${k} ${(r.w as unknown as Record<string, number>)[k]}`).join(", ")} |`));
  const col = (k: "lex" | "served" | "flat" | "best") => rows.map((r) => r[k]);
  console.log(`| mean ± sd | ${(["lex", "served", "flat", "best"] as const).map((k) => `${f4(mean(col(k)))} ± ${f4(sd(col(k)))}`).join(" | ")} | |`);
  for (const k of ["served", "flat", "best"] as const) {
    const g = rows.map((r) => r[k] - r.lex);
    console.log(`gain over lexical-only (${k}): mean ${f4(mean(g))}, fold sd ${f4(sd(g))}, min ${f4(Math.min(...g))}, max ${f4(Math.max(...g))}`);
  }
  const all = table.map((row) => avg(row, () => true));
  const { flat, best } = choose(points, all);
  console.log(`all folds: flat-region choice ${JSON.stringify(points[flat].w)} → ${f4(all[flat])}; best point ${JSON.stringify(points[best].w)} → ${f4(all[best])}; served defaults ${f4(avg(servedRow, () => true))}; lexical-only ${f4(avg(lexRow, () => true))}`);
  // Each feature switched off from the flat choice: what it adds, with its spread over folds.
  for (const k of Object.keys(axes)) {
    const off = { ...points[flat].w, [k]: 0 } as RerankWeights;
    const offRow = per(off);
    const g = folds.map((f) => avg(table[flat], (i) => cs[i].fold === f) - avg(offRow, (i) => cs[i].fold === f));
    console.log(`  ${k} off: ${f4(avg(offRow, () => true))} (feature adds mean ${f4(mean(g))}, fold sd ${f4(sd(g))})`);
  }
}

const ndcg10: Metric = (r, j) => ndcgAtK(r, j, 10);
const r10: Metric = (r, j) => recallAtK(r, j, 10);
const r5: Metric = (r, j) => recallAtK(r, j, 5);
const withWidth = (axes: Record<string, number[]>) => (widths ? { ...axes, width: widths } : axes);
const served = { ...DEFAULT_RERANK_WEIGHTS };
const read = (p: string) => readFileSync(join(DATA, p), "utf8");

if (!args.includes("--skip-scifact")) {
  const set = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
  const { memory, dir } = await open();
  const docOf = new Map<number, string>();
  for (let i = 0; i < set.docs.length; i += 500) {
    const part = set.docs.slice(i, i + 500);
    const r = await memory.ingestBatch({ items: part.map((d) => ({ title: d.title.trim() || d.id, content: d.text || d.title || d.id })) });
    r.items.forEach((it, k) => { if (!docOf.has(it.id)) docOf.set(it.id, part[k].id); });
  }
  const cs = await runQueries(memory, set.queries.map((q, i) => ({ text: q.text, fold: i % 5, judgments: q.judgments })), docOf);
  crossValidate("SciFact train nDCG@10", cs, ndcg10, withWidth({
    coverage: [0, 0.2, 0.4, 0.6, 0.8], title: [0, 0.15, 0.3, 0.45], vector: [0, 0.125, 0.25, 0.5], bigram: [0, 0.2, 0.35, 0.5], proximity: [0, 0.1, 0.2, 0.3],
  }), served);
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}

if (!args.includes("--skip-locomo")) {
  const convs = loadLocomo(read("locomo/locomo-dev.json"));
  const cs: Cached[] = [];
  for (let ci = 0; ci < convs.length; ci++) {
    const conv = convs[ci];
    const { memory, dir } = await open();
    const docOf = new Map<number, string>();
    for (const s of [...new Set(conv.docs.map((d) => d.session))]) {
      const turns = conv.docs.filter((d) => d.session === s);
      const r = await memory.ingestConversation({ session: { id: String(s), date: turns[0].date || undefined }, turns: turns.map((t) => ({ speaker: t.speaker, text: t.text, id: t.id })) }, { window: { before, after } });
      r.turns.forEach((t, k) => { if (t.id !== undefined && !docOf.has(t.id)) docOf.set(t.id, turns[k].id); });
    }
    const qs = conv.questions.filter((q) => q.category !== LOCOMO_ADVERSARIAL && q.evidence.length > 0);
    cs.push(...await runQueries(memory, qs.map((q) => ({ text: q.question, fold: ci, judgments: binaryJudgments(q.evidence) })), docOf));
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const axes = args.includes("--locomo-axes") ? JSON.parse(opt("--locomo-axes", "{}")) as Record<string, number[]> : {
    coverage: [0, 0.3, 0.6, 0.9], title: [0, 0.3, 0.6], vector: [0, 0.25, 0.5], speaker: [0, 0.25, 0.5, 1, 1.5], date: [0, 0.5],
  };
  for (const [name, metric] of [["R@5", r5], ["R@10", r10]] as const) {
    if (locomoMetric !== "both" && locomoMetric !== (name === "R@5" ? "r5" : "r10")) continue;
    crossValidate(`LoCoMo dev ${name} (window ${before},${after})`, cs, metric, withWidth(axes), served);
  }
}
