/**
 * The one interface of the lexical (BM25) leg of recall (SPEC §1 "Retrieval
 * pipeline", step 3). Both implementations — the typed-array `Bm25Index` and
 * the Orama-component `OramaLexicalIndex` — implement it, analyze text with
 * the same analyzer, score with the same BM25F formula and rank ties by id
 * ascending. Persistence is plain data (`toJSON`, then `loadLexicalIndex`),
 * stamped with a format version and a change counter so a caller can keep
 * the saved index beside its database and tell whether it is current.
 */

import type { Bm25Params } from "./bm25-scorer.ts";

/** A document to index: a numeric id (a safe integer), an optional title and the content. */
export interface LexicalDoc {
  id: number;
  title?: string;
  content: string;
}

/** Options of one lexical search. */
export interface LexicalSearchOptions {
  /** Keeps only ids for which it answers true; called only for candidates that would rank. */
  filter?: (id: number) => boolean;
  /** SPEC §4.1 `lex` override: replaces `query` with terms, `"phrases"` and `-exclusions`. */
  lex?: string;
}

/** One lexical hit. */
export interface LexicalHit {
  id: number;
  /** BM25 score (higher is better; comparable only within one search). */
  score: number;
  /** Analyzed query terms the document contains. */
  terms?: string[];
}

/** A document's analyzed fields as term ids (see `LexicalIndex.docTerms`). */
export interface DocTerms {
  title: Uint32Array;
  content: Uint32Array;
}

/** The persisted form of any lexical index (JSON-safe). */
export interface SavedLexicalIndex {
  format: "cairn-lexical";
  kind: "bm25" | "orama";
  /** Format version; a loader answers null for versions it does not know. */
  version: number;
  /** The index's change counter at save time (see `LexicalIndex.changeCounter`). */
  changeCounter: number;
  params: Bm25Params;
  data: unknown;
}

/** A BM25 index over documents with numeric ids. */
export interface LexicalIndex {
  /** Which implementation this is. */
  readonly kind: "bm25" | "orama";
  /** Number of indexed documents. */
  readonly size: number;
  /**
   * Incremented by every effective add or remove; the caller may also set it
   * (e.g. to its database's change counter) so a saved index says which
   * database state it reflects.
   */
  changeCounter: number;
  /** BM25 parameters in force (query-time: changing them needs no rebuild). */
  params: Bm25Params;
  /** Indexes a document; an existing document with the same id is replaced. */
  add(doc: LexicalDoc): void;
  /** Removes a document; unknown ids are ignored. */
  remove(id: number): void;
  /** True when the id is indexed. */
  has(id: number): boolean;
  /** The k best documents, score descending then id ascending. */
  search(query: string, k: number, opts?: LexicalSearchOptions): LexicalHit[];
  /** BM25 idf of an analyzed term (an unseen term has df 0); the recall reranker weighs query terms by it. */
  idf(term: string): number;
  /**
   * A document's analyzed title and content as term-id sequences (stopwords removed, stemmed), with a
   * lookup from analyzed terms to the same ids: the reranker reads term positions from here instead
   * of re-analysing text. Undefined for an unknown id.
   */
  docTerms(id: number): DocTerms | undefined;
  /** Term id of an analyzed term, undefined when no live document holds it (the same after a reload). */
  termId(term: string): number | undefined;
  /** Plain data for `loadLexicalIndex`. */
  toJSON(): SavedLexicalIndex;
  /** The same data with its large binary fields as bytes, for the snapshot file container (`snapshot-file.ts`). */
  toSnapshot(): SavedLexicalIndex;
}

/** The current persisted format version. */
// 2: the analyzer spells Greek symbols, joins letter-number terms (`il17`) and keeps gene-style tokens whole
// (issue 24); an index saved by the older analyzer is rebuilt.
export const LEXICAL_FORMAT_VERSION = 2;
