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
 * width the probe records). `--cache` keeps the probed SciFact queries in a file (written on the first run, read after).
 * Three selection rules are scored out of fold (best point, flat region, centre of the plateau), and a fourth, nested,
 * picks one of them per outer fold by leave-one-fold-out inside that fold's training folds.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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
// ../shared/data beside the checkout; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const DATA = process.env.CAIRN_SHARED_DATA ?? [resolve(ROOT, "../shared/data"), resolve(ROOT, "../../shared/data")].find((d) => existsSync(d)) ?? resolve(ROOT, "../shared/data");
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

const FEATURES = Object.keys(DEFAULT_RERANK_WEIGHTS) as (keyof RerankWeights)[];
/** Per query, computed once: the head's features as one array (FEATURES order) and every candidate's doc id. */
const packed = new WeakMap<Cached, { f: Float64Array; head: string[]; after: string[] }>();
function pack(c: Cached) {
  let p = packed.get(c);
  if (!p && c.probe) {
    const h = c.probe.head, f = new Float64Array(h.length * FEATURES.length);
    h.forEach((x, i) => FEATURES.forEach((k, j) => (f[i * FEATURES.length + j] = x.features[k] ?? 0)));
    const doc = (id: number) => c.docOf.get(id) ?? `c${id}`;
    packed.set(c, (p = { f, head: h.map((x) => doc(x.id)), after: c.probe.tail.slice(0, TOP).map(doc) }));
  }
  return p;
}
/** Only the first TOP of a ranking are scored (nDCG@10, R@10, R@5). */
const TOP = 10;

/** The first TOP of the served order under weights `w`, as doc ids (ties by chunk id, as served). */
function rank(c: Cached, w: RerankWeights): string[] {
  const p = pack(c);
  if (!p || !c.probe) return [];
  const width = Math.min((w as unknown as { width?: number }).width ?? c.probe.head.length, c.probe.head.length);
  const on = FEATURES.map((k) => ((k === "speaker" && !c.probe!.speaker) || (k === "date" && !c.probe!.date) ? 0 : w[k] ?? 0));
  const sum = on.reduce((a, b) => a + b, 0), K = FEATURES.length;
  const s = new Float64Array(width);
  for (let i = 0; i < width; i++) {
    let t = 0;
    for (let j = 0; j < K; j++) if (on[j]) t += on[j] * p.f[i * K + j];
    s[i] = Math.round((sum > 0 ? t / sum : 0) * 1e6) / 1e6;
  }
  const ids = c.probe.head;
  const order = [...Array(width).keys()].sort((a, b) => s[b] - s[a] || ids[a].id - ids[b].id);
  const out = order.slice(0, TOP).map((i) => p.head[i]);
  for (let i = width; out.length < TOP && i < ids.length; i++) out.push(p.head[i]);
  for (let i = 0; out.length < TOP && i < p.after.length; i++) out.push(p.after[i]);
  return out;
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

/** Selection rules: a grid point's index from the training values (mean per point) and their fold spread. */
type Rule = "flat" | "best" | "centre" | "inner";
const RULES: Rule[] = ["flat", "best", "centre", "inner"];

/** The mean of each point's ±1 box on every axis (edges: the points that exist), by separable box sums. */
function boxMeans(shape: number[], values: number[]): number[] {
  let sum = [...values], cnt = values.map(() => 1);
  let stride = 1;
  for (let a = shape.length - 1; a >= 0; a--) {
    const n = shape[a];
    const s2 = sum.map((_, i) => {
      const k = Math.floor(i / stride) % n;
      let x = sum[i];
      if (k > 0) x += sum[i - stride];
      if (k < n - 1) x += sum[i + stride];
      return x;
    });
    const c2 = cnt.map((_, i) => {
      const k = Math.floor(i / stride) % n;
      return cnt[i] + (k > 0 ? cnt[i - stride] : 0) + (k < n - 1 ? cnt[i + stride] : 0);
    });
    sum = s2, cnt = c2, stride *= n;
  }
  return sum.map((x, i) => x / cnt[i]);
}

/**
 * `best`: the best point. `flat`: the point whose ±1 neighbourhood has the best mean (the flattest good region).
 * `centre`: the region within one fold spread of the best point (its gain's sd over the training folds), and in it
 * the point nearest the region's centre (grid steps) — the middle of the plateau rather than its best corner.
 */
function choose(rule: Rule, shape: number[], points: { at: number[] }[], values: number[], bestSpread: (i: number) => number): number {
  const argmax = (xs: number[]) => xs.reduce((b, x, i) => (x > xs[b] ? i : b), 0);
  if (rule === "best") return argmax(values);
  if (rule === "flat") return argmax(boxMeans(shape, values));
  if (rule === "inner") {
    // The flat region whose ±1 box lies whole inside the grid (an axis of one step is exempt): at an edge the box is
    // cut short, so an edge point's mean is over fewer, nearer neighbours and is favoured for it, and nothing is known
    // of the ground past the edge. A grid whose interior is empty falls back to `flat`.
    const box = boxMeans(shape, values);
    const inside = (i: number) => points[i].at.every((x, k) => shape[k] < 3 || (x > 0 && x < shape[k] - 1));
    const ok = points.map((_, i) => i).filter(inside);
    return ok.length ? ok.reduce((b, i) => (box[i] > box[b] ? i : b), ok[0]) : argmax(box);
  }
  const b = argmax(values), floor = values[b] - bestSpread(b);
  const region = points.map((_, i) => i).filter((i) => values[i] >= floor);
  const centre = shape.map((_, k) => mean(region.map((i) => points[i].at[k])));
  const dist = (i: number) => points[i].at.reduce((a, x, k) => a + (x - centre[k]) ** 2, 0);
  return region.reduce((m, i) => (dist(i) < dist(m) - 1e-12 ? i : m), region[0]);
}

function crossValidate(name: string, cs: Cached[], metric: Metric, axes: Record<string, number[]>, served: RerankWeights): void {
  const points = grid(axes);
  const shape = Object.values(axes).map((v) => v.length);
  const folds = [...new Set(cs.map((c) => c.fold))].sort((a, b) => a - b);
  // Per point, per fold: the metric's sum (undefined: unjudged, skipped) and the judged count; every mean is over queries.
  const per = (w: RerankWeights | "lexical") => cs.map((c) => metric(w === "lexical" ? c.lexical : rank(c, w), c.judgments));
  const sums = (row: (number | undefined)[]) => folds.map((f) => row.reduce<number>((a, v, i) => a + (v !== undefined && cs[i].fold === f ? v : 0), 0));
  const counts = folds.map((f) => cs.filter((c, i) => c.fold === f && metric(c.lexical, c.judgments) !== undefined).length);
  const table = points.map((p) => sums(per(p.w)));
  const lexS = sums(per("lexical")), servedS = sums(per(served));
  const over = (S: number[], fs: number[]) => fs.reduce((a, f) => a + S[f], 0) / fs.reduce((a, f) => a + counts[f], 0);
  const idx = folds.map((_, k) => k);
  /** The point a rule picks from the folds `train`. */
  const pick = (rule: Rule, train: number[]) => {
    const values = table.map((S) => over(S, train));
    const spread = (i: number) => sd(train.map((f) => over(table[i], [f]) - over(lexS, [f])));
    return choose(rule, shape, points, values, spread);
  };
  /** Nested: the rule whose inner leave-one-fold-out gain on `train` is best (ties: the order of RULES). */
  const nestedRule = (train: number[]) => {
    const inner = RULES.map((r) => mean(train.map((g) => {
      const rest = train.filter((f) => f !== g), i = pick(r, rest);
      return over(table[i], [g]) - over(lexS, [g]);
    })));
    return RULES[inner.reduce((b, x, i) => (x > inner[b] + 1e-12 ? i : b), 0)];
  };
  type Row = { lex: number; served: number; w: Record<Rule, RerankWeights>; v: Record<Rule | "nested", number>; rule: Rule };
  const rows: Row[] = idx.map((k) => {
    const train = idx.filter((j) => j !== k);
    const chosen = Object.fromEntries(RULES.map((r) => [r, pick(r, train)])) as Record<Rule, number>;
    const rule = nestedRule(train);
    const v = Object.fromEntries(RULES.map((r) => [r, over(table[chosen[r]], [k])])) as Record<Rule, number>;
    return { lex: over(lexS, [k]), served: over(servedS, [k]), w: Object.fromEntries(RULES.map((r) => [r, points[chosen[r]].w])) as Record<Rule, RerankWeights>, v: { ...v, nested: v[rule] }, rule };
  });
  const f4 = (x: number) => x.toFixed(4);
  const names = Object.keys(axes);
  const ws = (w: RerankWeights) => names.map((n) => `${n} ${(w as unknown as Record<string, number>)[n]}`).join(", ");
  console.log(`\n### ${name}: ${folds.length}-fold CV (${cs.length} queries; grid ${points.length} points over ${names.join(", ")})`);
  console.log("| fold | lexical-only | served defaults | flat-region choice | best-point choice | centre-of-plateau choice | interior flat-region choice | nested rule choice (rule) | flat choice: weights | interior flat choice: weights |");
  console.log("|---|---|---|---|---|---|---|---|---|---|");
  rows.forEach((r, i) => console.log(`| ${folds[i]} | ${f4(r.lex)} | ${f4(r.served)} | ${f4(r.v.flat)} | ${f4(r.v.best)} | ${f4(r.v.centre)} | ${f4(r.v.inner)} | ${f4(r.v.nested)} (${r.rule}) | ${ws(r.w.flat)} | ${ws(r.w.inner)} |`));
  const col = (k: "lex" | "served" | Rule | "nested") => rows.map((r) => (k === "lex" || k === "served" ? r[k] : r.v[k]));
  const cols = ["lex", "served", "flat", "best", "centre", "inner", "nested"] as const;
  console.log(`| mean ± sd | ${cols.map((k) => `${f4(mean(col(k)))} ± ${f4(sd(col(k)))}`).join(" | ")} | | |`);
  for (const k of cols.slice(1)) {
    const g = rows.map((r, i) => col(k)[i] - r.lex);
    console.log(`gain over lexical-only (${k}): mean ${f4(mean(g))}, fold sd ${f4(sd(g))}, min ${f4(Math.min(...g))}, max ${f4(Math.max(...g))}`);
  }
  const flat = pick("flat", idx), best = pick("best", idx), centre = pick("centre", idx), inner = pick("inner", idx);
  const all = (i: number) => f4(over(table[i], idx));
  console.log(`all folds: flat ${ws(points[flat].w)} → ${all(flat)}; centre ${ws(points[centre].w)} → ${all(centre)}; interior flat ${ws(points[inner].w)} → ${all(inner)}; best ${ws(points[best].w)} → ${all(best)}; served ${f4(over(servedS, idx))}; lexical-only ${f4(over(lexS, idx))}`);
  // Each feature switched off from the flat choice: what it adds, with its spread over folds.
  for (const k of names) {
    const offS = sums(per({ ...points[flat].w, [k]: 0 } as RerankWeights));
    const g = idx.map((f) => over(table[flat], [f]) - over(offS, [f]));
    console.log(`  ${k} off: ${f4(over(offS, idx))} (feature adds mean ${f4(mean(g))}, fold sd ${f4(sd(g))})`);
  }
}

const ndcg10: Metric = (r, j) => ndcgAtK(r, j, 10);
const r10: Metric = (r, j) => recallAtK(r, j, 10);
const r5: Metric = (r, j) => recallAtK(r, j, 5);
const withWidth = (axes: Record<string, number[]>) => (widths ? { ...axes, width: widths } : axes);
const served = { ...DEFAULT_RERANK_WEIGHTS };
const read = (p: string) => readFileSync(join(DATA, p), "utf8");

if (!args.includes("--skip-scifact")) {
  const cacheFile = opt("--cache", "");
  const cs = cacheFile && existsSync(cacheFile) ? loadCache(cacheFile) : await scifactQueries();
  if (cacheFile && !existsSync(cacheFile)) saveCache(cacheFile, cs);
  const axes = args.includes("--scifact-axes") ? JSON.parse(opt("--scifact-axes", "{}")) as Record<string, number[]> : {
    coverage: [0, 0.2, 0.4, 0.6, 0.8], title: [0, 0.15, 0.3, 0.45], vector: [0, 0.125, 0.25, 0.5], bigram: [0, 0.2, 0.35, 0.5], proximity: [0, 0.1, 0.2, 0.3],
  };
  crossValidate("SciFact train nDCG@10", cs, ndcg10, withWidth(axes), served);
}

/** SciFact train through the served bulk door: one store, every query once served (probed) and once lexical-only. */
async function scifactQueries(): Promise<Cached[]> {
  const set = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
  const { memory, dir } = await open();
  const docOf = new Map<number, string>();
  for (let i = 0; i < set.docs.length; i += 500) {
    const part = set.docs.slice(i, i + 500);
    const r = await memory.ingestBatch({ items: part.map((d) => ({ title: d.title.trim() || d.id, content: d.text || d.title || d.id })) });
    r.items.forEach((it, k) => { if (!docOf.has(it.id)) docOf.set(it.id, part[k].id); });
  }
  const cpu = process.cpuUsage();
  const cs = await runQueries(memory, set.queries.map((q, i) => ({ text: q.text, fold: i % 5, judgments: q.judgments })), docOf);
  const used = process.cpuUsage(cpu);
  console.log(`SciFact queries: ${cs.length} served + ${cs.length} lexical-only, CPU ${((used.user + used.system) / 1000 / cs.length).toFixed(2)} ms per query pair`);
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
  return cs;
}

/** `--cache FILE`: the probed queries as JSON, so selection rules can be re-scored without re-running the pipeline. */
function saveCache(file: string, cs: Cached[]): void {
  const docOf = cs[0]?.docOf ?? new Map();
  writeFileSync(file, JSON.stringify({ docOf: [...docOf], cs: cs.map((c) => ({ ...c, docOf: undefined, judgments: [...c.judgments] })) }));
}
function loadCache(file: string): Cached[] {
  const raw = JSON.parse(readFileSync(file, "utf8")) as { docOf: [number, string][]; cs: (Omit<Cached, "docOf" | "judgments"> & { judgments: [string, number][] })[] };
  const docOf = new Map(raw.docOf);
  return raw.cs.map((c) => ({ ...c, docOf, judgments: new Map(c.judgments) }));
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
