/**
 * The `eval` command's core (SPEC §4.12): scores the served recall pipeline
 * on a BEIR set or LoCoMo conversations through an `EvalStore` (a fresh
 * store per corpus, filled through the bulk ingest door and queried through
 * recall, exactly as a client would). Reports recall@5, recall@10, nDCG@10,
 * MRR (over the top 100), abstentions, and per-query latency; `checkFloors`
 * turns `--floor r5=… r10=… mrr=… ndcg=…` into failures. No I/O here.
 */
import type { BeirSet } from "./beir.ts";
import { LOCOMO_ADVERSARIAL, type LocomoConversation } from "./locomo.ts";
import { binaryJudgments, meanOf, ndcgAtK, recallAtK, reciprocalRank, type Judgments } from "./metrics.ts";

/** A store the evaluation fills and queries. */
export interface EvalStore {
  /** Ingests documents in order; returns each one's chunk id (a duplicate returns the first copy's id). */
  ingest(docs: readonly { title: string; content: string }[]): Promise<number[]>;
  /** Recalls up to `limit` chunk ids, best first; `abstained` when recall answered `low_confidence`. */
  recall(query: string, limit: number): Promise<{ ids: number[]; abstained: boolean }>;
  /**
   * Ingests one conversation session through the conversation door (`POST /ingest/conversation`); returns
   * each turn's chunk id in turn order (undefined for a skipped turn). When present, LoCoMo goes through it.
   */
  ingestConversation?(session: { id: string; date?: string }, turns: readonly { speaker: string; text: string; id: string }[]): Promise<(number | undefined)[]>;
  close(): Promise<void>;
}

/** Progress ticks (one per query). */
export interface EvalProgress {
  tick(label?: string): void;
}

/** Mean scores over a set of queries. */
export interface EvalScores {
  queries: number;
  recall5: number;
  recall10: number;
  ndcg10: number;
  mrr: number;
  /** Queries answered `low_confidence` (they count as misses above). */
  abstained: number;
}

/** A full report. */
export interface EvalReport extends EvalScores {
  dataset: "beir" | "locomo";
  docs: number;
  ingestMs: number;
  queryMsP50: number;
  queryMsP95: number;
  byCategory?: Record<string, EvalScores>;
  /** LoCoMo category 5 (unanswerable): how many recall abstained on. */
  adversarial?: { queries: number; abstained: number };
}

/** Documents per ingest call. */
const BATCH = 500;
/** Depth recalled per query (the recall limit's maximum). */
const DEPTH = 100;

interface Row {
  ranked: string[];
  judgments: Judgments;
  abstained: boolean;
  category?: string;
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

function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(p * s.length))] * 100) / 100;
}

async function fill(store: EvalStore, docs: readonly { id: string; title: string; content: string }[]): Promise<Map<number, string>> {
  const byChunk = new Map<number, string>();
  for (let i = 0; i < docs.length; i += BATCH) {
    const part = docs.slice(i, i + BATCH);
    const ids = await store.ingest(part.map((d) => ({ title: d.title, content: d.content })));
    ids.forEach((id, k) => {
      if (!byChunk.has(id)) byChunk.set(id, part[k].id);
    });
  }
  return byChunk;
}

/** LoCoMo through the conversation door: one call per session, turns in order, the session date kept. */
async function fillSessions(store: EvalStore, conv: LocomoConversation): Promise<Map<number, string>> {
  const byChunk = new Map<number, string>();
  for (const s of [...new Set(conv.docs.map((d) => d.session))]) {
    const turns = conv.docs.filter((d) => d.session === s);
    const date = turns[0]?.date;
    const ids = await store.ingestConversation!({ id: String(s), ...(date ? { date } : {}) }, turns.map((t) => ({ speaker: t.speaker, text: t.text, id: t.id })));
    ids.forEach((id, k) => {
      if (id !== undefined && !byChunk.has(id)) byChunk.set(id, turns[k].id);
    });
  }
  return byChunk;
}

/** Evaluates a BEIR set in one fresh store. */
export async function evalBeir(set: BeirSet, open: () => Promise<EvalStore>, progress?: EvalProgress): Promise<EvalReport> {
  const store = await open();
  try {
    const t0 = performance.now();
    // An empty title or text is allowed in BEIR, not in /ingest: fall back to the other field, then the id.
    const byChunk = await fill(store, set.docs.map((d) => ({ id: d.id, title: d.title.trim() || d.id, content: d.text || d.title || d.id })));
    const ingestMs = performance.now() - t0;
    const rows: Row[] = [];
    const times: number[] = [];
    for (const q of set.queries) {
      const t = performance.now();
      const r = await store.recall(q.text, DEPTH);
      times.push(performance.now() - t);
      rows.push({ ranked: r.ids.map((id) => byChunk.get(id) ?? `chunk:${id}`), judgments: q.judgments, abstained: r.abstained });
      progress?.tick(q.id);
    }
    return { dataset: "beir", docs: set.docs.length, ingestMs: Math.round(ingestMs), queryMsP50: percentile(times, 0.5), queryMsP95: percentile(times, 0.95), ...scores(rows) };
  } finally {
    await store.close();
  }
}

/** Evaluates LoCoMo: one fresh store per conversation; category 5 is scored for abstention only. */
export async function evalLocomo(conversations: readonly LocomoConversation[], open: () => Promise<EvalStore>, progress?: EvalProgress): Promise<EvalReport> {
  const rows: Row[] = [];
  const times: number[] = [];
  let docs = 0, ingestMs = 0, adversarial = 0, adversarialAbstained = 0;
  for (const conv of conversations) {
    const store = await open();
    try {
      const t0 = performance.now();
      const byChunk = store.ingestConversation
        ? await fillSessions(store, conv)
        : await fill(store, conv.docs.map((d) => ({ id: d.id, title: d.title || d.id, content: d.content })));
      ingestMs += performance.now() - t0;
      docs += conv.docs.length;
      for (const q of conv.questions) {
        if (q.category !== LOCOMO_ADVERSARIAL && q.evidence.length === 0) continue;
        const t = performance.now();
        const r = await store.recall(q.question, DEPTH);
        times.push(performance.now() - t);
        progress?.tick(conv.sampleId);
        if (q.category === LOCOMO_ADVERSARIAL) {
          adversarial++;
          if (r.abstained) adversarialAbstained++;
          continue;
        }
        rows.push({ ranked: r.ids.map((id) => byChunk.get(id) ?? `chunk:${id}`), judgments: binaryJudgments(q.evidence), abstained: r.abstained, category: String(q.category) });
      }
    } finally {
      await store.close();
    }
  }
  const byCategory: Record<string, EvalScores> = {};
  for (const c of [...new Set(rows.map((r) => r.category!))].sort()) byCategory[c] = scores(rows.filter((r) => r.category === c));
  return {
    dataset: "locomo", docs, ingestMs: Math.round(ingestMs), queryMsP50: percentile(times, 0.5), queryMsP95: percentile(times, 0.95),
    ...scores(rows), byCategory, adversarial: { queries: adversarial, abstained: adversarialAbstained },
  };
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
