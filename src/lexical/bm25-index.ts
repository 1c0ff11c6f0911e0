/**
 * The plain TypeScript BM25 index: an `InvertedStore` (typed-array postings
 * and forward lists) scored by `Bm25Scorer` (BM25F over title and content,
 * top-k heap, ties by id ascending). Add replaces, remove is exact, and the
 * slots of removed documents are reclaimed by an in-memory compaction once
 * they outnumber the live ones. Persists as compact JSON (`toJSON`, base64
 * forward lists) and loads by rebuilding postings from it.
 */

import { MemoryError } from "../core/errors.ts";
import { createAnalyzer } from "./analyzer.ts";
import { resolveBm25Params } from "./bm25-params.ts";
import type { Bm25Params } from "./bm25-scorer.ts";
import { Bm25Scorer } from "./bm25-scorer.ts";
import { docTermsOf, InvertedStore } from "./inverted-store.ts";
import { parseLex, plainQuery } from "./lex-query.ts";
import { LEXICAL_FORMAT_VERSION } from "./lexical-index.ts";
import type { DocTerms, LexicalDoc, LexicalHit, LexicalIndex, LexicalSearchOptions, SavedLexicalIndex } from "./lexical-index.ts";
import { decodeStore, encodeStore } from "./store-snapshot.ts";
import { CONTENT, TITLE } from "./term-postings.ts";

const COMPACT_MIN_DEAD = 1024;

/** Creates an empty typed-array BM25 index. */
export function createBm25Index(params: Partial<Bm25Params> = {}): Bm25Index {
  return new Bm25Index(resolveBm25Params(params), new InvertedStore(), 0);
}

/** Typed-array BM25 implementation of `LexicalIndex`. */
export class Bm25Index implements LexicalIndex {
  /** Implementation tag. */
  readonly kind = "bm25" as const;
  /** Change counter (see `LexicalIndex`). */
  changeCounter: number;
  private readonly analyzer = createAnalyzer();
  private readonly analyze = (text: string) => this.analyzer.analyze(text);
  private store: InvertedStore;
  private scorer: Bm25Scorer;
  private readonly slots = new Map<number, number>();
  private params_: Bm25Params;

  /** Prefer `createBm25Index` or `loadLexicalIndex`; the store's slots must hold distinct ids. */
  constructor(params: Bm25Params, store: InvertedStore, changeCounter: number) {
    this.params_ = params;
    this.store = store;
    this.scorer = new Bm25Scorer(store);
    this.changeCounter = changeCounter;
    for (let d = 0; d < store.slotCount; d++) if (store.isLive(d)) this.slots.set(store.extIds[d], d);
  }

  /** BM25 parameters (validated on assignment). */
  get params(): Bm25Params {
    return this.params_;
  }
  set params(p: Bm25Params) {
    this.params_ = resolveBm25Params(p);
  }

  /** Number of indexed documents. */
  get size(): number {
    return this.slots.size;
  }

  /** Indexes a document, replacing any document with the same id. */
  add(doc: LexicalDoc): void {
    checkId(doc.id);
    const old = this.slots.get(doc.id);
    if (old !== undefined) this.store.removeDoc(old);
    const slot = this.store.slotCount;
    this.store.addField(slot, doc.id, CONTENT, this.analyze(doc.content));
    if (doc.title !== undefined) this.store.addField(slot, doc.id, TITLE, this.analyze(doc.title));
    this.slots.set(doc.id, slot);
    this.changeCounter++;
    this.maybeCompact();
  }

  /** Removes a document; unknown ids are ignored. */
  remove(id: number): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    this.store.removeDoc(slot);
    this.slots.delete(id);
    this.changeCounter++;
    this.maybeCompact();
  }

  /** True when the id is indexed. */
  has(id: number): boolean {
    return this.slots.has(id);
  }

  /** The k best documents for `query` (or for `opts.lex`, when given and non-empty). */
  search(query: string, k: number, opts: LexicalSearchOptions = {}): LexicalHit[] {
    const parsed = opts.lex !== undefined && opts.lex.trim() !== ""
      ? parseLex(opts.lex, this.analyze)
      : plainQuery(query, this.analyze);
    return this.scorer
      .search(parsed, Number.isFinite(k) ? Math.max(0, Math.floor(k)) : 0, this.params_, opts.filter)
      .map((h) => ({ id: h.id, score: h.score, terms: h.terms }));
  }

  /** BM25 idf of an analyzed term. */
  idf(term: string): number {
    return this.store.idf(term);
  }

  /** Analyzed title and content of a document as term ids. */
  docTerms(id: number): DocTerms | undefined {
    const slot = this.slots.get(id);
    return slot === undefined ? undefined : docTermsOf(this.store, slot);
  }

  /** Term id of an analyzed term a live document holds. */
  termId(term: string): number | undefined {
    return this.store.liveTermId(term);
  }

  /** Plain data for `loadLexicalIndex`. */
  toJSON(): SavedLexicalIndex {
    return this.saved(false);
  }

  /** `toJSON` with the binary fields as bytes (the snapshot file container). */
  toSnapshot(): SavedLexicalIndex {
    return this.saved(true);
  }

  private saved(binary: boolean): SavedLexicalIndex {
    return {
      format: "cairn-lexical",
      kind: "bm25",
      version: LEXICAL_FORMAT_VERSION,
      changeCounter: this.changeCounter,
      params: { ...this.params_ },
      data: encodeStore(this.store, true, binary),
    };
  }

  /** Rebuilds an index from the `data` and `params` of a saved bm25 index; null when malformed. */
  static fromSaved(saved: SavedLexicalIndex): Bm25Index | null {
    const data = saved.data as { ids?: unknown[] } | null;
    const n = Array.isArray(data?.ids) ? data.ids.length : 0;
    const store = decodeStore(saved.data, n);
    if (store === null) return null;
    const index = new Bm25Index(resolveBm25Params(saved.params), store, saved.changeCounter);
    return index.slots.size === store.liveCount ? index : null; // duplicate external ids
  }

  /** Renumbers slots once removed ones outnumber live ones, so memory tracks the live set. */
  private maybeCompact(): void {
    const dead = this.store.slotCount - this.slots.size;
    if (dead < COMPACT_MIN_DEAD || dead < this.slots.size) return;
    const store = decodeStore(encodeStore(this.store, true), this.slots.size);
    if (store === null) throw new MemoryError("internal_error", "Lexical index compaction failed");
    this.store = store;
    this.scorer = new Bm25Scorer(store);
    this.slots.clear();
    for (let d = 0; d < store.slotCount; d++) if (store.isLive(d)) this.slots.set(store.extIds[d], d);
  }
}

function checkId(id: number): void {
  if (!Number.isSafeInteger(id)) throw new MemoryError("internal_error", "Lexical document ids must be safe integers", { id: String(id) });
}
