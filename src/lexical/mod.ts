/**
 * Public API of the lexical (BM25) leg: the `LexicalIndex` interface, its two
 * implementations, loading a saved index, and the shared analyzer and
 * `lex` parser for other recall stages (reranker, PRF). See README.md here
 * for the measured figures and which implementation serves where.
 */
export type { LexicalDoc, LexicalHit, LexicalIndex, LexicalSearchOptions, SavedLexicalIndex } from "./lexical-index.ts";
export { LEXICAL_FORMAT_VERSION } from "./lexical-index.ts";
export { createBm25Index, Bm25Index } from "./bm25-index.ts";
export { createOramaLexicalIndex, OramaLexicalIndex } from "./orama-lexical-index.ts";
export { loadLexicalIndex } from "./load-lexical-index.ts";
export type { Bm25Params } from "./bm25-scorer.ts";
export { DEFAULT_BM25_PARAMS, resolveBm25Params } from "./bm25-params.ts";
export { analyze, createAnalyzer, foldText, memoNormalizer, normalizeWord, tokenize } from "./analyzer.ts";
export type { Analysis, Analyzer } from "./analyzer.ts";
export { porterStem } from "./porter-stemmer.ts";
export { ENGLISH_STOPWORDS } from "./stopwords.ts";
export { parseLex, plainQuery } from "./lex-query.ts";
export type { LexQuery } from "./lex-query.ts";
export { createBm25IndexComponent, neutralizeLex, SearchPlan } from "./orama-index-component.ts";
export { createIdOnlyDocumentsStore } from "./orama-documents-store.ts";
export { createCairnTokenizer } from "./orama-tokenizer.ts";
