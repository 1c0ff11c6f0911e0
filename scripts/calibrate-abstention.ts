/**
 * Abstention calibration (issue "Recall engine", SPEC §1 abstention): runs
 * the served recall pipeline with abstention off and records, per query, the
 * quality-assessment signals, labelled
 *   answerable  — SciFact train queries on SciFact, LoCoMo categories 1–4 on their conversation;
 *   unanswerable — LoCoMo category 5 (adversarial) on their conversation, off-topic queries
 *                 (SciFact queries on a LoCoMo conversation, LoCoMo questions on SciFact) and
 *                 seeded nonsense strings.
 * Then it fits the confidence model (logistic regression over the signals, 2-fold by query
 * parity for the held-out figures), picks the threshold that keeps answerable abstentions
 * at or under the target, and prints the figures and the coefficients for quality.ts.
 *
 *   npx tsx scripts/calibrate-abstention.ts [--dump /tmp/abstention.json] [--from /tmp/abstention.json]
 *
 * Skips with a message when ../shared/data is absent.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseConfig } from "../src/config/parse-config.ts";
import { loadBeir } from "../src/eval/beir.ts";
import { LOCOMO_ADVERSARIAL, loadLocomo } from "../src/eval/locomo.ts";
import type { Memory } from "../src/memory.ts";
import { DEFAULT_RECALL_PARAMS } from "../src/recall/recall-params.ts";
import { type ConfidenceProfile, FEATURE_NAMES, featuresOf, type QualitySignals } from "../src/recall/quality.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const DATA = resolve(ROOT, "../shared/data");
const args = process.argv.slice(2);
const option = (n: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const TARGET = Number(option("--target") ?? "0.01");

interface Row { kind: string; answerable: boolean; signals: QualitySignals }

async function collect(): Promise<Row[]> {
  if (!existsSync(join(DATA, "scifact/corpus.jsonl")) || !existsSync(join(DATA, "locomo/locomo-dev.json"))) {
    console.log("skipped: ../shared/data/scifact or ../shared/data/locomo is absent");
    process.exit(0);
  }
  const read = (p: string) => readFileSync(join(DATA, p), "utf8");
  const scifact = loadBeir({ corpus: read("scifact/corpus.jsonl"), queries: read("scifact/queries.jsonl"), qrels: read("scifact/qrels/train.tsv") });
  const locomo = loadLocomo(read("locomo/locomo-dev.json"), { previousTurn: true });
  const dirs: string[] = [];
  const open = async (docs: { title: string; content: string }[]): Promise<Memory> => {
    const dir = mkdtempSync(join(tmpdir(), "cairn-calib-"));
    dirs.push(dir);
    const m = await openMemoryForRuntime(parseConfig({ CAIRN_DB_PATH: join(dir, "e.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_MAX_DOCS: "1000000" }));
    m.recallEngine.params = { ...DEFAULT_RECALL_PARAMS, abstainBelow: -1 };
    for (let i = 0; i < docs.length; i += 500) await m.ingestBatch({ items: docs.slice(i, i + 500) });
    return m;
  };
  const signals = async (m: Memory, query: string): Promise<QualitySignals> => {
    const r = await m.recall({ query, limit: 10, provenance: true });
    const top = (r.hits as { provenance?: { quality_assessment?: { signals: QualitySignals } } }[])[0];
    return top?.provenance?.quality_assessment?.signals ?? { lex_coverage: 0, lex_bigram: 0, vec_top: 0, agreement: 0, lex_candidates: 0 };
  };
  const rows: Row[] = [];
  const sf = await open(scifact.docs.map((d) => ({ title: d.title.trim() || d.id, content: d.text || d.title || d.id })));
  for (const q of scifact.queries) rows.push({ kind: "scifact", answerable: true, signals: await signals(sf, q.text) });
  const lcQuestions: string[] = [];
  const lcStores: Memory[] = [];
  for (const conv of locomo) {
    const m = await open(conv.docs.map((d) => ({ title: d.title || d.id, content: d.content })));
    lcStores.push(m);
    for (const q of conv.questions) {
      if (q.category === LOCOMO_ADVERSARIAL) rows.push({ kind: "locomo-cat5", answerable: false, signals: await signals(m, q.question) });
      else if (q.evidence.length) {
        rows.push({ kind: "locomo", answerable: true, signals: await signals(m, q.question) });
        lcQuestions.push(q.question);
      }
    }
  }
  // Off-topic: every 3rd SciFact query on a LoCoMo conversation, every 3rd LoCoMo question on SciFact.
  for (let i = 0; i < scifact.queries.length; i += 3) rows.push({ kind: "off-topic", answerable: false, signals: await signals(lcStores[i % lcStores.length], scifact.queries[i].text) });
  for (let i = 0; i < lcQuestions.length; i += 3) rows.push({ kind: "off-topic", answerable: false, signals: await signals(sf, lcQuestions[i]) });
  // Nonsense: seeded letter strings of 1–4 words.
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = 0; i < 200; i++) {
    const words = Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Array.from({ length: 3 + Math.floor(rnd() * 6) }, () => "abcdefghijklmnopqrstuvwxyz"[Math.floor(rnd() * 26)]).join(""));
    rows.push({ kind: "nonsense", answerable: false, signals: await signals(i % 2 ? sf : lcStores[i % lcStores.length], words.join(" ")) });
  }
  for (const m of [sf, ...lcStores]) await m.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  return rows;
}

/** Plain logistic regression by gradient descent (few features, a few thousand rows). */
function fit(rows: Row[], profile: ConfidenceProfile): number[] {
  const xs = rows.map((r) => featuresOf(r.signals, profile));
  const w = new Array(xs[0].length + 1).fill(0);
  const pos = rows.filter((r) => r.answerable).length;
  // Class-balanced weights so the two populations' sizes do not set the prior.
  const cw = (r: Row) => (r.answerable ? rows.length / (2 * pos) : rows.length / (2 * (rows.length - pos)));
  for (let it = 0; it < 4000; it++) {
    const g = new Array(w.length).fill(0);
    rows.forEach((r, i) => {
      const p = predict(w, xs[i]);
      const e = (p - (r.answerable ? 1 : 0)) * cw(r);
      g[0] += e;
      xs[i].forEach((x, j) => (g[j + 1] += e * x));
    });
    for (let j = 0; j < w.length; j++) w[j] -= (0.5 * g[j]) / rows.length + (j ? 1e-4 * w[j] : 0);
  }
  return w;
}

function predict(w: number[], x: number[]): number {
  let z = w[0];
  x.forEach((v, j) => (z += w[j + 1] * v));
  return 1 / (1 + Math.exp(-z));
}

/** The highest threshold that abstains on at most `target` of the answerable rows. */
function pickThreshold(w: number[], rows: Row[], target: number, profile: ConfidenceProfile): number {
  const ans = rows.filter((r) => r.answerable).map((r) => predict(w, featuresOf(r.signals, profile))).sort((a, b) => a - b);
  const k = Math.floor(target * ans.length);
  return k === 0 ? ans[0] - 1e-6 : (ans[k - 1] + ans[k]) / 2;
}

function report(label: string, w: number[], t: number, rows: Row[], profile: ConfidenceProfile) {
  const abst = (r: Row) => predict(w, featuresOf(r.signals, profile)) < t;
  const ans = rows.filter((r) => r.answerable);
  const un = rows.filter((r) => !r.answerable);
  const wrong = ans.filter(abst).length;
  const right = un.filter(abst).length;
  const line = [`${label}: answerable abstained ${wrong}/${ans.length} (${((100 * wrong) / ans.length).toFixed(2)}%)`,
    `unanswerable abstained ${right}/${un.length}`, `precision ${right + wrong ? (right / (right + wrong)).toFixed(3) : "–"}`];
  for (const kind of ["scifact", "locomo", "locomo-cat5", "off-topic", "nonsense"]) {
    const k = rows.filter((r) => r.kind === kind);
    line.push(`${kind} ${k.filter(abst).length}/${k.length}`);
  }
  console.log(line.join(" · "));
}

const from = option("--from");
const rows: Row[] = from ? JSON.parse(readFileSync(from, "utf8")) : await collect();
if (option("--dump")) writeFileSync(option("--dump")!, JSON.stringify(rows));
// 2-fold by row parity: fit and threshold on one half, report on the other; then fit on all.
for (const profile of ["static", "lexical"] as const) {
  console.log(`\n## profile ${profile} (target: at most ${(TARGET * 100).toFixed(1)}% of answerable queries abstained)`);
  for (const fold of [0, 1]) {
    const train = rows.filter((_, i) => i % 2 === fold);
    const test = rows.filter((_, i) => i % 2 !== fold);
    const w = fit(train, profile);
    report(`fold ${fold} held-out`, w, pickThreshold(w, train, TARGET, profile), test, profile);
  }
  const w = fit(rows, profile);
  const t = pickThreshold(w, rows, TARGET, profile);
  report("all (in-sample)", w, t, rows, profile);
  console.log(`coefficients (bias, ${FEATURE_NAMES[profile].join(", ")}): [${w.map((x) => x.toFixed(4)).join(", ")}]  threshold ${t.toFixed(4)}`);
  // One served threshold for every profile: shift the bias so this profile's threshold lands on it.
  const logit = (p: number) => Math.log(p / (1 - p));
  const served = DEFAULT_RECALL_PARAMS.abstainBelow;
  console.log(`for abstainBelow ${served}: [${[w[0] + logit(served) - logit(t), ...w.slice(1)].map((x) => x.toFixed(4)).join(", ")}]`);
}
