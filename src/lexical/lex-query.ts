/**
 * The lexical query override syntax of SPEC §4.1 (`lex`: terms, phrases,
 * `-` exclusions), parsed into analyzed terms. Semantics, where the spec is
 * silent:
 * - bare words are scored, OR-combined (BM25);
 * - a `"quoted phrase"` is required: a hit must contain its terms adjacent,
 *   in order, within one field (stopwords are not counted as gaps); its terms
 *   also add to the score; an unterminated quote runs to the end;
 * - `-word` and `-"phrase"` exclude every document containing them; an
 *   identifier such as `-foo-bar` excludes the identifier as a phrase;
 * - a query with nothing to score (only exclusions or stopwords) finds nothing.
 * A plain `query` is never parsed with this syntax: see `plainQuery`.
 */

import type { Analysis } from "./analyzer.ts";

/** A parsed, analyzed lexical query. */
export interface LexQuery {
  /** Terms to score, with repeats (a repeated term weighs more). */
  terms: string[];
  /** Phrases every hit must contain (each a part-level term sequence, length ≥ 1). */
  required: string[][];
  /** Phrases no hit may contain (a single term is a one-term phrase). */
  excluded: string[][];
}

/** Analyzes a plain query: every term scored, no syntax. */
export function plainQuery(text: string, analyze: (text: string) => Analysis): LexQuery {
  const a = analyze(text);
  return { terms: a.sequence.concat(a.extras), required: [], excluded: [] };
}

/** Parses the SPEC §4.1 `lex` syntax: words, `"phrases"`, `-word`, `-"phrase"`. */
export function parseLex(lex: string, analyze: (text: string) => Analysis): LexQuery {
  const query: LexQuery = { terms: [], required: [], excluded: [] };
  let i = 0;
  const n = lex.length;
  while (i < n) {
    while (i < n && isSpace(lex.charCodeAt(i))) i++;
    if (i >= n) break;
    let negated = false;
    if (lex[i] === "-" && i + 1 < n && !isSpace(lex.charCodeAt(i + 1))) {
      negated = true;
      i++;
    }
    let chunk: string;
    let quoted = false;
    if (lex[i] === '"') {
      quoted = true;
      const close = lex.indexOf('"', i + 1);
      const end = close < 0 ? n : close;
      chunk = lex.slice(i + 1, end);
      i = close < 0 ? n : close + 1;
    } else {
      const start = i;
      while (i < n && !isSpace(lex.charCodeAt(i)) && lex[i] !== '"') i++;
      chunk = lex.slice(start, i);
    }
    const a = analyze(chunk);
    if (negated) {
      if (a.sequence.length > 0) query.excluded.push(a.sequence);
      else for (const extra of a.extras) query.excluded.push([extra]);
      continue;
    }
    for (const t of a.sequence) query.terms.push(t);
    for (const t of a.extras) query.terms.push(t);
    if (quoted && a.sequence.length > 0) query.required.push(a.sequence);
  }
  return query;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xa0 || c === 0x3000;
}
