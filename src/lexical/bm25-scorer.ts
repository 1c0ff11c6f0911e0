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

const EXCLUDED = 1;
const ALLOWED = 2;

/** Scores queries against one store, reusing its scratch buffers between calls (not re-entrant). */
export class Bm25Scorer {
  /** Score accumulator per slot; a positive value marks a touched slot (every contribution is > 0). */
  private acc = new Float64Array(0);
  /** EXCLUDED / ALLOWED flags per slot, set only for queries with exclusions or phrases. */
  private state = new Uint8Array(0);
  private touched = new Int32Array(0);
  private flagged: number[] = [];
  /** k1 · (1 − b + b · dl / avgdl) per slot, for `normKey`. */
  private norm = new Float64Array(0);
  private normKey = "";

  constructor(private readonly store: InvertedStore) {}

  /**
   * The k best documents for `query`; `filter` sees external ids and only candidates that would rank. `check` is
   * called before each term's postings (a budget check that throws to stop, SPEC §7).
   */
  search(query: LexQuery, k: number, params: Bm25Params, filter?: (id: number) => boolean, check?: () => void): ScoredDoc[] {
    const store = this.store;
    if (k <= 0 || store.liveCount === 0 || query.terms.length === 0) return [];
    this.ensureScratch();
    const { acc, state, touched } = this;
    let nTouched = 0;
    try {
      for (const phrase of query.excluded) this.flag(phraseDocs(store, phrase), EXCLUDED);
      const hasRequired = query.required.length > 0;
      if (hasRequired && !this.flagRequired(query.required)) return [];
      const checkState = hasRequired || query.excluded.length > 0;

      const { termIds, weights } = this.resolveTerms(query.terms);
      const { k1, titleWeight: w } = params;
      const norm = this.lengthNorms(params);
      const n = store.liveCount;
      for (let t = 0; t < termIds.length; t++) {
        check?.();
        const p = store.list(termIds[t]);
        const df = p.length;
        const qw = weights[t] * Math.log(1 + (n - df + 0.5) / (df + 0.5)) * (k1 + 1);
        const docs = p.docs;
        const tfs = p.tfs;
        // Issue 25: the plain query (no phrase, no exclusion) is the common case; its loop has no state test.
        // An entry exists only while some field holds the term, so tf > 0 unless the title weight is 0.
        if (!checkState && w > 0) {
          for (let j = 0, t2 = 0; j < df; j++, t2 += 2) {
            const d = docs[j];
            const tf = w * tfs[t2] + tfs[t2 + 1]; // TITLE, CONTENT
            const a = acc[d];
            if (a === 0) touched[nTouched++] = d;
            acc[d] = a + (qw * tf) / (tf + norm[d]);
          }
          continue;
        }
        for (let j = 0; j < df; j++) {
          const d = docs[j];
          if (checkState) {
            const st = state[d];
            if (st & EXCLUDED || (hasRequired && !(st & ALLOWED))) continue;
          }
          const tf = w * tfs[2 * j] + tfs[2 * j + 1]; // TITLE, CONTENT
          if (tf === 0) continue;
          if (acc[d] === 0) touched[nTouched++] = d;
          acc[d] += (qw * tf) / (tf + norm[d]);
        }
      }
      const heap = new TopK(k);
      for (let i = 0; i < nTouched; i++) {
        const d = touched[i];
        const score = acc[d];
        const id = store.extIds[d];
        if (!heap.wouldAccept(score, id)) continue;
        if (filter && !filter(id)) continue;
        heap.offer(score, id, d);
      }
      return heap.drain().map((r) => ({ docNo: r.docNo, id: r.id, score: r.score, terms: this.matchedTerms(r.docNo, termIds) }));
    } finally {
      for (let i = 0; i < nTouched; i++) acc[touched[i]] = 0;
      for (const d of this.flagged) state[d] = 0;
      this.flagged.length = 0;
    }
  }

  /** Per-slot BM25F length normalisation, recomputed only when the store or the params changed. */
  private lengthNorms(params: Bm25Params): Float64Array {
    const store = this.store;
    const key = `${store.revision}:${params.k1}:${params.b}:${params.titleWeight}`;
    if (key === this.normKey && this.norm.length >= store.slotCount) return this.norm;
    if (this.norm.length < store.slotCount) this.norm = new Float64Array(this.acc.length);
    const { k1, b, titleWeight: w } = params;
    const avgdl = w * store.avgLen(TITLE) + store.avgLen(CONTENT);
    const slope = avgdl > 0 ? b / avgdl : 0;
    const len = store.fieldLen;
    for (let d = 0; d < store.slotCount; d++) {
      this.norm[d] = k1 * (1 - b + slope * (w * len[d * FIELDS + TITLE] + len[d * FIELDS + CONTENT]));
    }
    this.normKey = key;
    return this.norm;
  }

  /** Distinct query terms present in the index, with their query frequency as weight. */
  private resolveTerms(terms: string[]): { termIds: number[]; weights: number[] } {
    const termIds: number[] = [];
    const weights: number[] = [];
    const at = new Map<number, number>();
    for (const term of terms) {
      const id = this.store.termId(term);
      if (id === undefined || this.store.df(id) === 0) continue;
      const i = at.get(id);
      if (i === undefined) {
        at.set(id, termIds.length);
        termIds.push(id);
        weights.push(1);
      } else weights[i]++;
    }
    return { termIds, weights };
  }

  /** Flags documents matching every required phrase as ALLOWED; false when none does. */
  private flagRequired(required: string[][]): boolean {
    let allowed = new Set(phraseDocs(this.store, required[0]));
    for (let i = 1; i < required.length && allowed.size > 0; i++) {
      const next = new Set<number>();
      for (const d of phraseDocs(this.store, required[i])) if (allowed.has(d)) next.add(d);
      allowed = next;
    }
    if (allowed.size === 0) return false;
    this.flag(allowed, ALLOWED);
    return true;
  }

  private flag(docs: Iterable<number>, flag: number): void {
    for (const d of docs) {
      if (this.state[d] === 0) this.flagged.push(d);
      this.state[d] |= flag;
    }
  }

  private matchedTerms(docNo: number, termIds: number[]): string[] {
    const out: string[] = [];
    for (const id of termIds) if (this.store.list(id).find(docNo) >= 0) out.push(this.store.terms[id]);
    return out;
  }

  private ensureScratch(): void {
    const need = this.store.slotCount;
    if (this.acc.length >= need) return;
    const cap = Math.max(need, this.acc.length * 2, 1024);
    this.acc = new Float64Array(cap);
    this.state = new Uint8Array(cap);
    this.touched = new Int32Array(cap);
    this.norm = new Float64Array(cap);
    this.normKey = "";
  }
}
