/**
 * Inline syntax `parseMarkdown` reads with patterns rather than the mdast
 * tree: `[[relation::entity]]` annotations (SPEC §2.6, kept verbatim),
 * `[[wikilinks]]` and `#inline-tags`. Code spans and code blocks are
 * masked first, so examples inside code are not read as links.
 */

/** A `[[relation::entity]]` annotation (SPEC §2.6 edge source 1). */
export interface Annotation {
  /** Relation as written, surrounding spaces trimmed. */
  relation: string;
  /** Entity as written, surrounding spaces trimmed. */
  entity: string;
  /** 1-based line in the original document. */
  line: number;
  /** The whole `[[...]]` text. */
  raw: string;
}

/** A `[[target]]`, `[[target#heading|alias]]` or `![[embed]]` link. */
export interface Wikilink {
  target: string;
  heading?: string;
  alias?: string;
  embed: boolean;
  line: number;
  raw: string;
}

/** An inline `#tag` (without the `#`). */
export interface InlineTag {
  tag: string;
  line: number;
}

const ANNOTATION = /\[\[([^[\]\n|]+?)::([^[\]\n]+?)\]\]/g;
const WIKILINK = /(!?)\[\[([^[\]\n]+?)\]\]/g;
// A tag starts after whitespace or opening punctuation and holds at least one non-digit.
const TAG = /(?<=^|[\s({,;:!?"'])#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu;

/** Finds 1-based line numbers for offsets (binary search over line starts). */
export function lineIndex(text: string, firstLine: number): (offset: number) => number {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return (offset) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + firstLine;
  };
}

/** Blanks the given offset ranges (keeping newlines, so offsets and lines stay put). */
export function maskRanges(text: string, ranges: readonly [number, number][]): string {
  if (ranges.length === 0) return text;
  const chars = text.split("");
  for (const [a, b] of ranges) for (let i = a; i < b && i < chars.length; i++) if (chars[i] !== "\n") chars[i] = " ";
  return chars.join("");
}

/** Reads annotations, wikilinks and inline tags from already-masked text. */
export function scanInline(masked: string, lineOf: (offset: number) => number): {
  annotations: Annotation[];
  wikilinks: Wikilink[];
  inlineTags: InlineTag[];
} {
  const annotations: Annotation[] = [];
  for (const m of masked.matchAll(ANNOTATION)) {
    annotations.push({ relation: m[1].trim(), entity: m[2].trim(), line: lineOf(m.index), raw: m[0] });
  }
  const wikilinks: Wikilink[] = [];
  for (const m of masked.matchAll(WIKILINK)) {
    if (m[2].includes("::")) continue;
    const [ref, ...aliasParts] = m[2].split("|");
    const [target, ...headingParts] = ref.split("#");
    const link: Wikilink = { target: target.trim(), embed: m[1] === "!", line: lineOf(m.index), raw: m[0] };
    if (headingParts.length > 0) link.heading = headingParts.join("#").trim();
    if (aliasParts.length > 0) link.alias = aliasParts.join("|").trim();
    wikilinks.push(link);
  }
  const inlineTags: InlineTag[] = [];
  for (const m of masked.matchAll(TAG)) inlineTags.push({ tag: m[1], line: lineOf(m.index) });
  return { annotations, wikilinks, inlineTags };
}
