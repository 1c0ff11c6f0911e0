/**
 * The `eval` command's core (SPEC §4.12): scores the served recall pipeline on an evaluation set
 * (`eval-sets.ts`: a BEIR corpus, LoCoMo conversations, a markdown vault) through an `EvalStore` — a fresh store
 * per unit, filled through the door a user would use and queried through recall, exactly as a client would.
 * Each store is asked the same queries in several runs (issue 36): the served pipeline, lexical-only, SQLite
 * FTS5 over the identical chunks the store holds, and the served pipeline again after a restart on the same
 * database. Reports recall@5, recall@10, nDCG@10, MRR (over the top 100), abstentions on answerable queries
 * (wrongful) and on unanswerable ones (caught), and per-query latency of the first run; `checkFloors` turns
 * `--floor r5=… r10=… mrr=… ndcg=…` into failures. No I/O here.
 */
import type { BeirSet } from "./beir.ts";
import { beirUnits, locomoUnits, type EvalSet } from "./eval-sets.ts";
import type { LocomoConversation } from "./locomo.ts";
import { meanOf, ndcgAtK, recallAtK, reciprocalRank, type Judgments } from "./metrics.ts";
import type { EvalMode } from "./recall-modes.ts";
import type { EvalStore } from "./eval-store.ts";

export type { EvalStore } from "./eval-store.ts";

/** Progress ticks (one per query and run). */
export interface EvalProgress {
  tick(label?: string): void;
}

/** A run: a recall mode, FTS5 over the same chunks, or the first run's mode after a restart. */
export type EvalRun = EvalMode | "fts5" | "restart";

/** Mean scores over a set of queries. */
export interface EvalScores {
  queries: number;
  recall5: number;
  recall10: number;
  ndcg10: number;
  mrr: number;
  /** Answerable queries answered `low_confidence` (wrongful abstentions; they count as misses above). */
  abstained: number;
}

/** One run's figures. */
export interface EvalRunScores extends EvalScores {
  run: EvalRun;
  byCategory?: Record<string, EvalScores>;
  /** Unanswerable queries (LoCoMo category 5, off-topic, nonsense): how many recall abstained on. */
  unanswerable?: { queries: number; abstained: number };
  /** Per store (LoCoMo conversations), for cross-validation with the stores as folds. */
  byUnit?: Record<string, EvalScores>;
}

/** A full report: the first run's figures at the top level, every run in `runs`. */
export interface EvalReport extends EvalScores {
  dataset: EvalSet["dataset"];
  docs: number;
  ingestMs: number;
  queryMsP50: number;
  queryMsP95: number;
  byCategory?: Record<string, EvalScores>;
  /** LoCoMo category 5 (unanswerable): how many recall abstained on. */
  adversarial?: { queries: number; abstained: number };
  unanswerable?: { queries: number; abstained: number };
  runs: EvalRunScores[];
}

/** Depth recalled per query (the recall limit's maximum). */
const DEPTH = 100;

interface Row {
  unit: string;
  ranked: string[];
  judgments: Judgments;
  abstained: boolean;
  category?: string;
  unanswerable?: boolean;
}

function scores(rows: readonly Row[]): EvalScores {
  return {
    queries: rows.length,
    recall5: meanOf(rows.map((r) => recallAtK(r.ranked, r.judgments, 5))),
    recall10: meanOf(rows.map((r) => recallAtK(r.ranked, r.judgments, 10))),
    ndcg10: meanOf(rows.map((r) => ndcgAtK(r.ranked, r.judgments, 10))),
    mrr: meanOf(rows.map((r) => reciprocalRank(r.ranked, r.judgments))),
    abstained: rows.filter((r) => r.abstained).length,
  };
}

function runScores(run: EvalRun, rows: readonly Row[]): EvalRunScores {
  const answerable = rows.filter((r) => !r.unanswerable);
  const out: EvalRunScores = { run, ...scores(answerable) };
  const cats = [...new Set(answerable.flatMap((r) => (r.category === undefined ? [] : [r.category])))].sort();
  if (cats.length) {
    out.byCategory = {};
    for (const c of cats) out.byCategory[c] = scores(answerable.filter((r) => r.category === c));
  }
  const un = rows.filter((r) => r.unanswerable);
  if (un.length) out.unanswerable = { queries: un.length, abstained: un.filter((r) => r.abstained).length };
  const units = [...new Set(answerable.map((r) => r.unit))];
  if (units.length > 1) {
    out.byUnit = {};
    for (const u of units) out.byUnit[u] = scores(answerable.filter((r) => r.unit === u));
  }
  return out;
}

function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
}

/**
 * Evaluates a set: for each unit a fresh store, filled once, then every run over its queries in order (a
 * `restart` run last, as it reopens the store). `runs[0]` is the primary run (its latency is measured).
 */
export async function evaluateSet(set: EvalSet, open: () => Promise<EvalStore>, runs: readonly EvalRun[] = ["fused"], progress?: EvalProgress): Promise<EvalReport> {
  const order = [...runs.filter((r) => r !== "restart"), ...runs.filter((r) => r === "restart")];
  const primary = runs[0] === "restart" || runs[0] === "fts5" ? "fused" : runs[0];
  const rows = new Map<EvalRun, Row[]>(order.map((r) => [r, []]));
  const times: number[] = [];
  let docs = 0, ingestMs = 0;
  for (const unit of set.units) {
    const store = await open();
    try {
      const t0 = performance.now();
      const byChunk = await unit.fill(store);
      ingestMs += performance.now() - t0;
      docs += unit.docs;
      for (const run of order) {
        if (run === "restart") {
          if (!store.restart) throw new Error("this store cannot restart");
          await store.restart();
        }
        if (run === "fts5" && !store.fts5) throw new Error("this store has no FTS5 baseline");
        for (const q of unit.queries) {
          const t = performance.now();
          const r = run === "fts5" ? { ids: await store.fts5!(q.text, DEPTH), abstained: false }
            : await store.recall(q.text, DEPTH, run === "restart" ? primary : run);
          if (run === runs[0]) times.push(performance.now() - t);
          progress?.tick(unit.label);
          rows.get(run)!.push({ unit: unit.label, ranked: r.ids.map((id) => byChunk.get(id) ?? `chunk:${id}`), judgments: q.judgments, abstained: r.abstained, category: q.category, unanswerable: q.unanswerable });
        }
      }
    } finally {
      await store.close();
    }
  }
  const all = runs.map((r) => runScores(r, rows.get(r)!));
  const first = all[0];
  const report: EvalReport = {
    dataset: set.dataset, docs, ingestMs: Math.round(ingestMs), queryMsP50: percentile(times, 0.5), queryMsP95: percentile(times, 0.95),
    queries: first.queries, recall5: first.recall5, recall10: first.recall10, ndcg10: first.ndcg10, mrr: first.mrr, abstained: first.abstained,
    runs: all,
  };
  if (first.byCategory) report.byCategory = first.byCategory;
  if (first.unanswerable) report[set.dataset === "locomo" ? "adversarial" : "unanswerable"] = first.unanswerable;
  return report;
}

/** Evaluates a BEIR set in one fresh store (the bulk door). */
export async function evalBeir(set: BeirSet, open: () => Promise<EvalStore>, progress?: EvalProgress, runs?: readonly EvalRun[]): Promise<EvalReport> {
  return await evaluateSet(beirUnits(set), open, runs, progress);
}

/** Evaluates LoCoMo: one fresh store per conversation; category 5 is scored for abstention only. */
export async function evalLocomo(conversations: readonly LocomoConversation[], open: () => Promise<EvalStore>, progress?: EvalProgress, runs?: readonly EvalRun[]): Promise<EvalReport> {
  return await evaluateSet(locomoUnits(conversations), open, runs, progress);
}

/** Metrics a floor may name. */
export const FLOOR_METRICS = { r5: "recall5", r10: "recall10", mrr: "mrr", ndcg: "ndcg10" } as const;

/** Parses `name=value` floors (`r5`, `r10`, `mrr`, `ndcg`); throws on anything else. */
export function parseFloors(values: readonly string[]): Partial<Record<keyof typeof FLOOR_METRICS, number>> {
  const out: Partial<Record<keyof typeof FLOOR_METRICS, number>> = {};
  for (const v of values) {
    const m = /^(r5|r10|mrr|ndcg)=(\d*\.?\d+)$/.exec(v.trim());
    if (!m || Number(m[2]) > 1) throw new Error(`Floor '${v}' must be r5=, r10=, mrr= or ndcg= with a value from 0 to 1`);
    out[m[1] as keyof typeof FLOOR_METRICS] = Number(m[2]);
  }
  return out;
}

/** The floors a report falls under, as messages (empty when all hold). */
export function checkFloors(report: EvalScores, floors: Partial<Record<keyof typeof FLOOR_METRICS, number>>): string[] {
  const out: string[] = [];
  for (const [name, min] of Object.entries(floors) as [keyof typeof FLOOR_METRICS, number][]) {
    const got = report[FLOOR_METRICS[name]];
    if (got < min) out.push(`${name} ${got.toFixed(4)} is under the floor ${min}`);
  }
  return out;
}
