/**
 * Scores a retrieval index on loaded evaluation sets: BEIR (nDCG@10,
 * recall@k, MRR over judged queries) and LoCoMo (evidence recall@k and MRR
 * per conversation, adversarial category excluded). The index is anything
 * with `add` and `search` over numeric ids, so the same harness measures
 * every lexical implementation (and, later, the fused recall pipeline).
 */

import type { BeirSet } from "./beir.ts";
import { LOCOMO_ADVERSARIAL } from "./locomo.ts";
import type { LocomoConversation } from "./locomo.ts";
import { binaryJudgments, meanOf, ndcgAtK, recallAtK, reciprocalRank } from "./metrics.ts";
import type { Judgments } from "./metrics.ts";

/** The slice of an index the harness needs. */
export interface RetrievalIndex {
  add(doc: { id: number; title?: string; content: string }): void;
  search(query: string, k: number): ReadonlyArray<{ id: number }>;
}

/** Mean scores over the evaluated queries. */
export interface RetrievalScores {
  queries: number;
  ndcg10: number;
  recall5: number;
  recall10: number;
  recall100: number;
  mrr: number;
}

/** Per-query ranked ids and judgments, the raw material of `RetrievalScores`. */
export interface RankedQuery {
  ranked: string[];
  judgments: Judgments;
}

/** Summarises ranked queries into mean metrics (MRR over the full returned list). */
export function summarize(rows: readonly RankedQuery[]): RetrievalScores {
  return {
    queries: rows.length,
    ndcg10: meanOf(rows.map((r) => ndcgAtK(r.ranked, r.judgments, 10))),
    recall5: meanOf(rows.map((r) => recallAtK(r.ranked, r.judgments, 5))),
    recall10: meanOf(rows.map((r) => recallAtK(r.ranked, r.judgments, 10))),
    recall100: meanOf(rows.map((r) => recallAtK(r.ranked, r.judgments, 100))),
    mrr: meanOf(rows.map((r) => reciprocalRank(r.ranked, r.judgments))),
  };
}

/** Indexes a BEIR corpus (documents numbered 1..n in corpus order) into `index`. */
export function indexBeir(set: BeirSet, index: RetrievalIndex): string[] {
  const ids: string[] = [];
  set.docs.forEach((d, i) => {
    ids.push(d.id);
    index.add({ id: i + 1, title: d.title, content: d.text });
  });
  return ids;
}

/** Runs every judged query of `set` against an index built with `indexBeir`; `depth` results per query. */
export function rankBeir(set: BeirSet, index: RetrievalIndex, docIds: readonly string[], depth = 100): RankedQuery[] {
  return set.queries.map((q) => ({
    ranked: index.search(q.text, depth).map((h) => docIds[h.id - 1]),
    judgments: q.judgments,
  }));
}

/** Builds and scores a BEIR set in one call. */
export function evaluateBeir(set: BeirSet, index: RetrievalIndex, depth = 100): RetrievalScores {
  return summarize(rankBeir(set, index, indexBeir(set, index), depth));
}

/** LoCoMo scores, overall and per category. */
export interface LocomoScores extends RetrievalScores {
  byCategory: Record<number, RetrievalScores>;
  /** Adversarial questions left out of the figures. */
  excludedAdversarial: number;
  /** Non-adversarial questions left out because none of their evidence ids exists. */
  excludedNoEvidence: number;
}

/** One index per conversation (turns numbered 1..n), every non-adversarial question with evidence searched. */
export function evaluateLocomo(conversations: readonly LocomoConversation[], makeIndex: () => RetrievalIndex, depth = 100): LocomoScores {
  const rows: (RankedQuery & { category: number })[] = [];
  let excludedAdversarial = 0;
  let excludedNoEvidence = 0;
  for (const conv of conversations) {
    const index = makeIndex();
    conv.docs.forEach((d, i) => index.add({ id: i + 1, title: d.title, content: d.content }));
    for (const q of conv.questions) {
      if (q.category === LOCOMO_ADVERSARIAL) {
        excludedAdversarial++;
        continue;
      }
      if (q.evidence.length === 0) {
        excludedNoEvidence++;
        continue;
      }
      const ranked = index.search(q.question, depth).map((h) => conv.docs[h.id - 1].id);
      rows.push({ ranked, judgments: binaryJudgments(q.evidence), category: q.category });
    }
  }
  const byCategory: Record<number, RetrievalScores> = {};
  for (const c of [...new Set(rows.map((r) => r.category))].sort((a, b) => a - b)) {
    byCategory[c] = summarize(rows.filter((r) => r.category === c));
  }
  return { ...summarize(rows), byCategory, excludedAdversarial, excludedNoEvidence };
}
