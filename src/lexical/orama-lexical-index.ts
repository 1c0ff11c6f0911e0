/**
 * `LexicalIndex` on Orama 3, made correct through its component interface:
 * `create({schema, components: {tokenizer, index, documentsStore}})` with
 * the Cairn tokenizer (duplicates kept), the BM25 index component and the
 * ids-only documents store; insert, remove, search, save and load are
 * Orama's own methods. Use it where an in-process index with no database is
 * wanted (e.g. over a UMP file set); see `src/lexical/README.md` for how it
 * compares with `Bm25Index`.
 */

import { count, create, insert, load, remove, save, search } from "@orama/orama";
import type { AnyOrama } from "@orama/orama";
import { MemoryError } from "../core/errors.ts";
import { resolveBm25Params } from "./bm25-params.ts";
import type { Bm25Params } from "./bm25-scorer.ts";
import { LEXICAL_FORMAT_VERSION } from "./lexical-index.ts";
import type { DocTerms, LexicalDoc, LexicalHit, LexicalIndex, LexicalSearchOptions, SavedLexicalIndex } from "./lexical-index.ts";
import { docTermsOf } from "./inverted-store.ts";
import { createIdOnlyDocumentsStore } from "./orama-documents-store.ts";
import { createBm25IndexComponent, neutralizeLex, savingBinary, SearchPlan } from "./orama-index-component.ts";
import type { CairnOramaIndex } from "./orama-index-component.ts";
import { createCairnTokenizer } from "./orama-tokenizer.ts";

const SCHEMA = { title: "string", content: "string" } as const;

/** Creates an empty Orama-backed BM25 index. */
export function createOramaLexicalIndex(params: Partial<Bm25Params> = {}): OramaLexicalIndex {
  return new OramaLexicalIndex(resolveBm25Params(params), 0);
}

/** Orama-backed implementation of `LexicalIndex`. */
export class OramaLexicalIndex implements LexicalIndex {
  /** Implementation tag. */
  readonly kind = "orama" as const;
  /** Change counter (see `LexicalIndex`). */
  changeCounter: number;
  /** The Orama database (exposed for callers that want Orama's own API). */
  readonly db: AnyOrama;
  private readonly params_: Bm25Params;

  /** Prefer `createOramaLexicalIndex` or `loadLexicalIndex`. */
  constructor(params: Bm25Params, changeCounter: number) {
    this.params_ = { ...params };
    this.changeCounter = changeCounter;
    this.db = create({
      schema: SCHEMA,
      sort: { enabled: false },
      components: {
        tokenizer: createCairnTokenizer(),
        index: createBm25IndexComponent(this.params_),
        documentsStore: createIdOnlyDocumentsStore(),
      },
    }) as unknown as AnyOrama;
  }

  /** BM25 parameters; the index component reads the same object at every search. */
  get params(): Bm25Params {
    return { ...this.params_ };
  }
  set params(p: Bm25Params) {
    Object.assign(this.params_, resolveBm25Params(p));
  }

  /** Number of indexed documents. */
  get size(): number {
    return count(this.db);
  }

  /** Indexes a document, replacing any document with the same id. */
  add(doc: LexicalDoc): void {
    if (!Number.isSafeInteger(doc.id)) throw new MemoryError("internal_error", "Lexical document ids must be safe integers", { id: String(doc.id) });
    if (this.has(doc.id)) remove(this.db, String(doc.id));
    const row: Record<string, string> = { id: String(doc.id), content: doc.content };
    if (doc.title !== undefined) row.title = doc.title;
    insert(this.db, row);
    this.changeCounter++;
  }

  /** Removes a document; unknown ids are ignored (and never reach Orama, which would mint an internal id). */
  remove(id: number): void {
    if (!this.has(id)) return;
    remove(this.db, String(id));
    this.changeCounter++;
  }

  /** True when the id is indexed. */
  has(id: number): boolean {
    const iid = this.db.internalDocumentIDStore.idToInternalId.get(String(id));
    return iid !== undefined && (this.db.data.index as unknown as CairnOramaIndex).core.isLive(iid);
  }

  /** The k best documents for `query` (or for `opts.lex`, when given and non-empty), through Orama's `search`. */
  search(query: string, k: number, opts: LexicalSearchOptions = {}): LexicalHit[] {
    const limit = Number.isFinite(k) ? Math.max(0, Math.floor(k)) : 0;
    const term = opts.lex !== undefined && opts.lex.trim() !== "" ? opts.lex : neutralizeLex(query);
    // An empty term makes Orama list every document instead of searching.
    if (limit === 0 || term.trim() === "") return [];
    const plan = new SearchPlan(limit, opts.filter);
    const result = search(this.db, { term, limit, where: { cairnPlan: plan } } as never);
    if (result instanceof Promise) throw new MemoryError("internal_error", "Orama search unexpectedly went async");
    const terms = new Map(plan.hits.map((h) => [h.id, h.terms]));
    const hits = result.hits.map((h) => ({ id: Number(h.id), score: h.score, terms: terms.get(Number(h.id)) }));
    // Orama breaks score ties by internal id; the interface promises external id ascending.
    return hits.sort((a, b) => (b.score - a.score) || (a.id - b.id));
  }

  /** BM25 idf of an analyzed term, from the index component's store. */
  idf(term: string): number {
    return (this.db.data.index as unknown as CairnOramaIndex).core.idf(term);
  }

  /** Analyzed title and content of a document as term ids. */
  docTerms(id: number): DocTerms | undefined {
    const slot = this.db.internalDocumentIDStore.idToInternalId.get(String(id));
    return slot === undefined ? undefined : docTermsOf((this.db.data.index as unknown as CairnOramaIndex).core, slot);
  }

  /** Term id of an analyzed term a live document holds. */
  termId(term: string): number | undefined {
    return (this.db.data.index as unknown as CairnOramaIndex).core.liveTermId(term);
  }

  /** Plain data for `loadLexicalIndex` (Orama's own `save`). */
  toJSON(): SavedLexicalIndex {
    return { ...this.toJSONHead(), data: save(this.db) };
  }

  /** `toJSON` with the store's binary fields as bytes (the snapshot file container, issue 20). */
  toSnapshot(): SavedLexicalIndex {
    return { ...this.toJSONHead(), data: savingBinary(() => save(this.db)) };
  }

  private toJSONHead(): Omit<SavedLexicalIndex, "data"> {
    return { format: "cairn-lexical", kind: "orama", version: LEXICAL_FORMAT_VERSION, changeCounter: this.changeCounter, params: { ...this.params_ } };
  }

  /** Rebuilds an index from a saved orama index with Orama's `load`; null when malformed. */
  static fromSaved(saved: SavedLexicalIndex): OramaLexicalIndex | null {
    const index = new OramaLexicalIndex(resolveBm25Params(saved.params), saved.changeCounter);
    try {
      load(index.db, saved.data as never);
    } catch {
      return null;
    }
    return index;
  }
}
