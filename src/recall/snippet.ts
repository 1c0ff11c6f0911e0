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

function termHits(text: string, q: ReadonlySet<string>): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu)) {
    if (q.has(termOf(m[0]))) out.push(m.index!);
  }
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
  for (const m of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu)) {
    if (queryTerms.has(termOf(m[0]))) out.push([m.index!, m.index! + m[0].length]);
  }
  return out;
}
