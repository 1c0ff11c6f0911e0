/**
 * Classic BM25 over an `InvertedStore`, term-at-a-time into a reused
 * accumulator, then a top-k heap (score desc, id asc). Two fields are scored
 * as one BM25F document (Robertson & Zaragoza, "The Probabilistic Relevance
 * Framework", 2009, §3.5): tf = w·tf_title + tf_content, dl = w·len_title +
 * len_content, avgdl likewise, one k1 and b; idf = ln(1 + (N − df + 0.5) /
 * (df + 0.5)), Lucene's non-negative form. With w = 1 this is BM25 over the
 * concatenated text, the "flat" setting of the published SciFact baseline.
 */

import type { InvertedStore } from "./inverted-store.ts";
import type { LexQuery } from "./lex-query.ts";
import { phraseDocs } from "./phrase-match.ts";
import { CONTENT, FIELDS, TITLE } from "./term-postings.ts";
import { TopK } from "./top-k.ts";

/** BM25 parameters; all apply at query time, so they can be changed without a rebuild. */
export interface Bm25Params {
  /** Term-frequency saturation. */
  k1: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b: number;
  /** Weight of a title occurrence relative to a content occurrence (BM25F); 0 ignores titles. */
  titleWeight: number;
}

/** A scored document: slot, external id, score and the query terms it contains. */
export interface ScoredDoc {
  docNo: number;
  id: number;
  score: number;
  terms: string[];
}

const TOUCHED = 1;
const EXCLUDED = 2;
const ALLOWED = 4;

/** Scores queries against one store, reusing its scratch buffers between calls (not re-entrant). */
export class Bm25Scorer {
  private acc = new Float64Array(0);
  private state = new Uint8Array(0);
  private marked: number[] = [];

  constructor(private readonly store: InvertedStore) {}

  /** The k best documents for `query`; `filter` sees external ids and only candidates that would rank. */
  search(query: LexQuery, k: number, params: Bm25Params, filter?: (id: number) => boolean): ScoredDoc[] {
    const store = this.store;
    if (k <= 0 || store.liveCount === 0 || query.terms.length === 0) return [];
    this.ensureScratch();
    const state = this.state;
    const acc = this.acc;
    try {
      for (const phrase of query.excluded) this.mark(phraseDocs(store, phrase), EXCLUDED);
      const hasRequired = query.required.length > 0;
      if (hasRequired && !this.markRequired(query.required)) return [];

      const { termIds, weights } = this.resolveTerms(query.terms);
      const { k1, b, titleWeight: w } = params;
      const n = store.liveCount;
      const avgdl = w * store.avgLen(TITLE) + store.avgLen(CONTENT);
      const norm = avgdl > 0 ? b / avgdl : 0;
      const fieldLen = store.fieldLen;
      for (let t = 0; t < termIds.length; t++) {
        const p = store.postings[termIds[t]];
        const df = p.length;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        const qw = weights[t] * idf * (k1 + 1);
        const docs = p.docs;
        const tfs = p.tfs;
        for (let j = 0; j < df; j++) {
          const d = docs[j];
          const st = state[d];
          if (st & EXCLUDED || (hasRequired && !(st & ALLOWED))) continue;
          const tf = w * tfs[j * FIELDS + TITLE] + tfs[j * FIELDS + CONTENT];
          if (tf === 0) continue;
          const dl = w * fieldLen[d * FIELDS + TITLE] + fieldLen[d * FIELDS + CONTENT];
          acc[d] += (qw * tf) / (tf + k1 * (1 - b + norm * dl));
          if (!(st & TOUCHED)) {
            if (st === 0) this.marked.push(d); // ALLOWED docs are already listed
            state[d] = st | TOUCHED;
          }
        }
      }
      const heap = new TopK(k);
      for (const d of this.marked) {
        const score = acc[d];
        if (!(state[d] & TOUCHED) || score <= 0) continue;
        const id = store.extIds[d];
        if (!heap.wouldAccept(score, id)) continue;
        if (filter && !filter(id)) continue;
        heap.offer(score, id, d);
      }
      return heap.drain().map((r) => ({ docNo: r.docNo, id: r.id, score: r.score, terms: this.matchedTerms(r.docNo, termIds) }));
    } finally {
      for (const d of this.marked) {
        acc[d] = 0;
        state[d] = 0;
      }
      this.marked.length = 0;
    }
  }

  /** Distinct query terms present in the index, with their query frequency as weight. */
  private resolveTerms(terms: string[]): { termIds: number[]; weights: number[] } {
    const termIds: number[] = [];
    const weights: number[] = [];
    const at = new Map<number, number>();
    for (const term of terms) {
      const id = this.store.termId(term);
      if (id === undefined || this.store.postings[id].length === 0) continue;
      const i = at.get(id);
      if (i === undefined) {
        at.set(id, termIds.length);
        termIds.push(id);
        weights.push(1);
      } else weights[i]++;
    }
    return { termIds, weights };
  }

  /** Marks documents matching every required phrase as ALLOWED; false when none does. */
  private markRequired(required: string[][]): boolean {
    let allowed = new Set(phraseDocs(this.store, required[0]));
    for (let i = 1; i < required.length && allowed.size > 0; i++) {
      const next = new Set<number>();
      for (const d of phraseDocs(this.store, required[i])) if (allowed.has(d)) next.add(d);
      allowed = next;
    }
    if (allowed.size === 0) return false;
    this.mark(allowed, ALLOWED);
    return true;
  }

  private mark(docs: Iterable<number>, flag: number): void {
    for (const d of docs) {
      if (this.state[d] === 0) this.marked.push(d);
      this.state[d] |= flag;
    }
  }

  private matchedTerms(docNo: number, termIds: number[]): string[] {
    const out: string[] = [];
    for (const id of termIds) if (this.store.postings[id].find(docNo) >= 0) out.push(this.store.terms[id]);
    return out;
  }

  private ensureScratch(): void {
    const need = this.store.slotCount;
    if (this.acc.length >= need) return;
    const cap = Math.max(need, this.acc.length * 2, 1024);
    this.acc = new Float64Array(cap);
    this.state = new Uint8Array(cap);
  }
}
