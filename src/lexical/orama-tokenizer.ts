/**
 * The Orama tokenizer component backed by the Cairn analyzer. Unlike Orama's
 * default tokenizer it keeps duplicate tokens (so term frequency survives)
 * and applies the same stopwords, Porter stemming and identifier splitting as
 * the rest of the lexical leg. It also exposes `analyze`, which the Cairn
 * index component uses to keep phrase sequences apart from whole-identifier
 * terms.
 */

import type { Tokenizer } from "@orama/orama";
import { createAnalyzer } from "./analyzer.ts";
import type { Analysis } from "./analyzer.ts";

/** An Orama tokenizer that also offers the analyzer's structured output. */
export interface CairnTokenizer extends Tokenizer {
  /** Phrase sequence and whole-identifier extras of a text. */
  analyze(text: string): Analysis;
}

/** Creates the tokenizer component (language "english"; Orama's `language` option must not be set). */
export function createCairnTokenizer(): CairnTokenizer {
  const analyzer = createAnalyzer();
  return {
    language: "english",
    // Orama reads this map only through its default tokenizer; the analyzer keeps its own cache.
    normalizationCache: new Map(),
    tokenize: (raw: string) => (typeof raw === "string" ? analyzer.tokenize(raw) : []),
    analyze: (text: string) => analyzer.analyze(text),
  };
}

/** True when a tokenizer offers `analyze` (i.e. is a `CairnTokenizer`). */
export function isCairnTokenizer(t: Tokenizer): t is CairnTokenizer {
  return typeof (t as Partial<CairnTokenizer>).analyze === "function";
}
