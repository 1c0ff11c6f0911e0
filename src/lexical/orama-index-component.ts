/**
 * An Orama 3 index component that scores classic BM25 correctly. Orama's
 * default index stores tf as occurrences / length, takes df from token
 * occurrences, prefix-matches every term through its radix tree and scores
 * BM25+. This component keeps the same `InvertedStore` and `Bm25Scorer` as
 * the plain TypeScript index: exact terms only, true tf and df, BM25F over
 * `title` and `content`, top-k selection and id-ascending ties.
 *
 * How Orama's search arguments are read (Orama 3.1 `IIndex.search`):
 * - `term` is parsed with the SPEC §4.1 `lex` syntax (callers pass a plain
 *   query through `neutralizeLex` first);
 * - `boost.title` overrides the title weight; leaving `title` out of
 *   `properties` sets it to 0 (content always counts);
 * - k1 and b come from the component's params: Orama always fills `relevance`
 *   with its own defaults, so a caller's intent cannot be told apart;
 * - `exact`, `tolerance` and `threshold` are ignored (no prefix or fuzzy
 *   matching; terms are OR-combined as BM25 is);
 * - the result size and an id filter arrive as a `SearchPlan` through
 *   `where: { cairnPlan }`, the only per-search channel Orama hands to the
 *   index; the plan also receives the matched terms of each hit.
 */

import type { AnyOrama, IIndex, SearchableType, Tokenizer } from "@orama/orama";
import { MemoryError } from "../core/errors.ts";
import { Bm25Scorer } from "./bm25-scorer.ts";
import type { Bm25Params, ScoredDoc } from "./bm25-scorer.ts";
import { InvertedStore } from "./inverted-store.ts";
import { parseLex } from "./lex-query.ts";
import { isCairnTokenizer } from "./orama-tokenizer.ts";
import { decodeStore, encodeStore } from "./store-snapshot.ts";

/**
 * Orama's `save` calls the component's `save` with no options: `savingBinary` runs one save with the store's binary
 * fields as bytes (the snapshot file container, issue 20). Saves are synchronous, so the flag cannot leak.
 */
let binarySave = false;
export function savingBinary<T>(save: () => T): T {
  binarySave = true;
  try {
    return save();
  } finally {
    binarySave = false;
  }
}
import { CONTENT, TITLE } from "./term-postings.ts";

/** Index state held in `orama.data.index`. */
export interface CairnOramaIndex {
  core: InvertedStore;
  scorer: Bm25Scorer;
  /** Shared with the owner, so parameter changes apply to the next search. */
  params: Bm25Params;
  /** Orama's full-text search reads this key; there are no vector properties. */
  vectorIndexes: Record<string, never>;
  shared: { internalIdToId: string[] };
}

/** Per-search instructions passed as `where: { cairnPlan: plan }`. */
export class SearchPlan extends Set<number> {
  /** Scored documents of the last search, best first (filled by the index). */
  hits: ScoredDoc[] = [];

  constructor(readonly k: number, readonly filter?: (id: number) => boolean, readonly check?: () => void) {
    super();
  }
}

const FIELD_OF: Record<string, number> = { title: TITLE, content: CONTENT };
const PROPS = ["title", "content"];

/** Makes a plain query safe to pass as a `lex` term: drops quotes and leading `-`, which the analyzer ignores anyway. */
export function neutralizeLex(query: string): string {
  return query.replace(/"/g, " ").replace(/(^|\s)-+/g, "$1");
}

/** Creates the index component; `params` is read at every search (mutate it to retune). */
export function createBm25IndexComponent(params: Bm25Params): IIndex<CairnOramaIndex> {
  const fieldOf = (prop: string): number => {
    const f = FIELD_OF[prop];
    if (f === undefined) throw new MemoryError("internal_error", "Lexical Orama schema allows only title and content", { prop });
    return f;
  };
  const analyze = (tokenizer: Tokenizer, text: string) =>
    isCairnTokenizer(tokenizer) ? tokenizer.analyze(text) : { sequence: tokenizer.tokenize(text), extras: [] };
  const make = (core: InvertedStore, shared: unknown): CairnOramaIndex =>
    ({ core, scorer: new Bm25Scorer(core), params, vectorIndexes: {}, shared: shared as CairnOramaIndex["shared"] });

  return {
    create(_orama: AnyOrama, shared, schema) {
      for (const [prop, type] of Object.entries(schema as Record<string, unknown>)) {
        fieldOf(prop);
        if (type !== "string") throw new MemoryError("internal_error", "Lexical Orama properties must be strings", { prop });
      }
      return make(new InvertedStore(), shared);
    },
    insert(_impl, index, prop, id, internalId, value, _type, _language, tokenizer) {
      if (typeof value !== "string") throw new MemoryError("internal_error", "Lexical Orama values must be strings", { prop });
      index.core.addField(internalId, Number(id), fieldOf(prop), analyze(tokenizer, value));
    },
    remove(_impl, index, prop, _id, internalId) {
      index.core.removeField(internalId, fieldOf(prop));
      return true;
    },
    // The four score-parameter hooks and calculateResultScores exist for Orama's
    // default index, which calls them from its own insert/remove/search. Orama's
    // methods never call them on a custom index; here insert/remove keep every
    // statistic in the core, so they have nothing to do.
    insertDocumentScoreParameters() {},
    insertTokenScoreParameters() {},
    removeDocumentScoreParameters() {},
    removeTokenScoreParameters() {},
    calculateResultScores() {},
    search(index, term, tokenizer, _language, properties, _exact, _tolerance, boost, _relevance, _docsCount, where) {
      const store = index as unknown as CairnOramaIndex;
      const plan = where instanceof SearchPlan ? where : undefined;
      const query = parseLex(term, (t) => analyze(tokenizer, t));
      const titleWeight = properties.includes("title") ? ((boost as Record<string, number>).title ?? store.params.titleWeight) : 0;
      const hits = store.scorer.search(query, plan?.k ?? store.core.liveCount, { ...store.params, titleWeight }, plan?.filter, plan?.check);
      if (plan) plan.hits = hits;
      return hits.map((h) => [h.docNo, h.score]);
    },
    searchByWhereClause(_index, _tokenizer, filters) {
      const plan = (filters as { cairnPlan?: unknown }).cairnPlan;
      if (!(plan instanceof SearchPlan)) throw new MemoryError("internal_error", "Lexical Orama index accepts only a cairnPlan where clause");
      return plan;
    },
    getSearchableProperties: () => PROPS.slice(),
    getSearchablePropertiesWithTypes: () => ({ title: "string", content: "string" }) as Record<string, SearchableType>,
    load(shared, raw) {
      const r = raw as { store?: unknown };
      const slotLimit = (shared as unknown as CairnOramaIndex["shared"]).internalIdToId.length + 1;
      const core = decodeStore(r.store, slotLimit);
      if (core === null) throw new MemoryError("internal_error", "Saved lexical Orama index is malformed");
      return make(core, shared);
    },
    save: <R>(index: CairnOramaIndex) => ({ store: encodeStore(index.core, false, binarySave) }) as R,
  };
}
