/**
 * Bounded verbatim windows and evidence (SPEC §2.2 `content`, `snippet`,
 * `evidence`): the window of the chunk with the most query terms, its
 * 1-based line span within the chunk, and highlight ranges computed on the
 * served (read-seam) text so offsets match what the client sees.
 */
import { memoNormalizer } from "../lexical/analyzer.ts";

/** A window of the stored text. */
export interface TextWindow {
  text: string;
  start: number;
  end: number;
  lineStart: number;
  lineEnd: number;
}

// Word as written → its index term. Served windows stem every word of up to `limit` hits per query (Porter was
// ~7% of /recall CPU at 50k), so the results are memoised.
const termOf = memoNormalizer(50_000);

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;

/**
 * Issue 25: which words could hold a query term, by their first character. A word's term keeps the word's
 * lowercased first character (stopword removal empties it, apostrophes never start a word, Porter stemming
 * only rewrites suffixes), so for an ASCII first character only the first characters of the query terms can
 * match; other words skip the stemming memo. Non-ASCII first characters are always looked up.
 */
function firstChars(q: ReadonlySet<string>): Uint8Array | undefined {
  const first = new Uint8Array(128);
  for (const t of q) {
    const c = t.charCodeAt(0);
    if (!(c < 128)) return undefined; // an empty or non-ASCII term: no filter
    first[c] = 1;
  }
  return first;
}

/** Lowercase ASCII code of `c` (other codes unchanged). */
const lowerAscii = (c: number) => (c >= 65 && c <= 90 ? c + 32 : c);

let lastText: string | undefined;
let lastTerms: ReadonlySet<string> | undefined;
let lastHits: number[] = [];

/** Start offsets of the words holding a query term (the last answer is reused: a hit's two windows ask twice). */
function termHits(text: string, q: ReadonlySet<string>): number[] {
  if (text === lastText && q === lastTerms) return lastHits;
  const out: number[] = [];
  const first = firstChars(q);
  for (const m of text.matchAll(WORD)) {
    const c = text.charCodeAt(m.index!);
    if (first !== undefined && c < 128 && first[lowerAscii(c)] === 0) continue;
    if (q.has(termOf(m[0]))) out.push(m.index!);
  }
  lastText = text;
  lastTerms = q;
  lastHits = out;
  return out;
}

/** The `size`-character window holding the most query terms (whole text when shorter). */
export function bestWindow(text: string, queryTerms: ReadonlySet<string>, size: number): TextWindow {
  let start = 0;
  if (text.length > size) {
    const hits = termHits(text, queryTerms);
    let best = 0, bestStart = 0;
    for (let i = 0, j = 0; i < hits.length; i++) {
      while (hits[i] - hits[j] > size * 0.8) j++;
      if (i - j + 1 > best) {
        best = i - j + 1;
        bestStart = hits[j];
      }
    }
    start = Math.max(0, Math.min(bestStart - Math.floor(size * 0.1), text.length - size));
    // Snap to a word boundary so the window starts on a whole word.
    if (start > 0) {
      const ws = text.slice(start, start + 40).search(/\s/);
      if (ws >= 0) start += ws + 1;
    }
  }
  let end = Math.min(text.length, start + size);
  if (end < text.length) {
    const back = text.slice(start, end).search(/\s\S*$/);
    if (back > size / 2) end = start + back;
  }
  const lineStart = text.slice(0, start).split("\n").length;
  const lineEnd = lineStart + text.slice(start, end).split("\n").length - 1;
  return { text: text.slice(start, end), start, end, lineStart, lineEnd };
}

/** Highlight ranges `[start, end)` of query-term words within a served text. */
export function highlights(text: string, queryTerms: ReadonlySet<string>): [number, number][] {
  const out: [number, number][] = [];
  const first = firstChars(queryTerms);
  for (const m of text.matchAll(WORD)) {
    const c = text.charCodeAt(m.index!);
    if (first !== undefined && c < 128 && first[lowerAscii(c)] === 0) continue;
    if (queryTerms.has(termOf(m[0]))) out.push([m.index!, m.index! + m[0].length]);
  }
  return out;
}
