/**
 * Heading-aware chunking of a parsed markdown document (for chunked
 * ingest and evidence spans, SPEC §2.2 "line or heading span"). The rule:
 *
 * 1. The body is cut into sections at every top-level heading. A section's
 *    heading path is the chain of enclosing headings (`["Guide",
 *    "Install"]`); text before the first heading has the path `[]`.
 * 2. A section with no content of its own (a heading directly followed by
 *    a deeper heading) is not a chunk: its heading line is carried into the
 *    next section's first chunk. Followed by a sibling or a shallower
 *    heading (or the end), it is a chunk of its own.
 * 3. A section whose text (heading line through last block) fits in
 *    `maxChars` is one chunk. A longer one is packed greedily from its
 *    units, in order: the heading line, then each top-level block (blocks
 *    are separated by blank lines, so this splits at paragraph boundaries).
 *    A block longer than `maxChars` is split at line boundaries, and a
 *    single line longer than `maxChars` is cut at the last space before the
 *    limit (or at the limit).
 * 4. Non-empty sections are never merged with each other, so a chunk's
 *    heading path is always exact.
 *
 * A chunk's text is the verbatim slice of the original lines from its
 * start line to its end line (blank lines between blocks included), and
 * its length is at most `maxChars` UTF-16 code units. Every non-blank body
 * line lands in exactly one chunk (a line cut in pieces lands in each).
 */
import type { BlockInfo, ParsedMarkdown } from "./parse-markdown.ts";

/** Options for `chunkMarkdown`. */
export interface ChunkOptions {
  /** Longest chunk text in UTF-16 code units; default 2000. */
  maxChars?: number;
}

/** One chunk with its heading path and its 1-based, inclusive line span in the original document. */
export interface MarkdownChunk {
  index: number;
  text: string;
  headingPath: string[];
  startLine: number;
  endLine: number;
}

interface Section {
  path: string[];
  depth: number;
  headingLine: number | null;
  blocks: BlockInfo[];
}

interface Unit {
  startLine: number;
  endLine: number;
  /** Set for a piece of one overlong line. */
  piece?: string;
}

/** Default `maxChars`. */
export const DEFAULT_MAX_CHARS = 2000;

function sections(parsed: ParsedMarkdown): Section[] {
  const out: Section[] = [];
  const stack: { depth: number; text: string }[] = [];
  let current: Section = { path: [], depth: 0, headingLine: null, blocks: [] };
  for (const b of parsed.blocks) {
    if (b.type !== "heading") {
      current.blocks.push(b);
      continue;
    }
    if (current.headingLine !== null || current.blocks.length > 0) out.push(current);
    const depth = b.depth ?? 1;
    while (stack.length > 0 && stack[stack.length - 1].depth >= depth) stack.pop();
    stack.push({ depth, text: b.text ?? "" });
    current = { path: stack.map((s) => s.text), depth, headingLine: b.startLine, blocks: [] };
    // A setext heading spans two lines; its underline belongs to the heading unit.
    if (b.endLine > b.startLine) current.blocks.push({ type: "heading-underline", startLine: b.startLine + 1, endLine: b.endLine });
  }
  if (current.headingLine !== null || current.blocks.length > 0) out.push(current);
  return out;
}

/** Cuts one overlong line into pieces of at most `max` characters, preferring a space as the cut. */
function cutLine(line: string, lineNo: number, max: number): Unit[] {
  const out: Unit[] = [];
  let rest = line;
  while (rest.length > max) {
    let at = rest.lastIndexOf(" ", max);
    if (at <= 0) at = max;
    out.push({ startLine: lineNo, endLine: lineNo, piece: rest.slice(0, at) });
    rest = rest.slice(at).replace(/^ +/, "");
  }
  if (rest !== "") out.push({ startLine: lineNo, endLine: lineNo, piece: rest });
  return out;
}

/** Chunks a parsed document by headings, within `maxChars`. */
export function chunkMarkdown(parsed: ParsedMarkdown, opts: ChunkOptions = {}): MarkdownChunk[] {
  const max = Math.max(1, Math.floor(opts.maxChars ?? DEFAULT_MAX_CHARS));
  const lines = parsed.body.split("\n");
  const lineText = (n: number) => lines[n - parsed.bodyStartLine] ?? "";
  const slice = (a: number, b: number) => {
    const out: string[] = [];
    for (let n = a; n <= b; n++) out.push(lineText(n));
    return out.join("\n");
  };
  // Prefix sums of line lengths: the length of a span of lines in O(1). Packing asks it once per unit, so building
  // the span instead cost (lines per chunk) × (lines): up to ~1,000 × for a body of one-character lines.
  const before = new Array<number>(lines.length + 1);
  before[0] = 0;
  for (let i = 0; i < lines.length; i++) before[i + 1] = before[i] + lines[i].length;
  const at = (n: number) => Math.min(Math.max(n - parsed.bodyStartLine, 0), lines.length);
  const spanLength = (a: number, b: number) => (b < a ? 0 : before[at(b + 1)] - before[at(a)] + (b - a));
  const chunks: MarkdownChunk[] = [];
  const emit = (text: string, path: string[], startLine: number, endLine: number) => {
    chunks.push({ index: chunks.length, text, headingPath: path, startLine, endLine });
  };

  const all = sections(parsed);
  let carried: number | null = null; // start line of heading-only ancestors carried forward
  all.forEach((sec, i) => {
    const next = all[i + 1];
    const contentless = sec.blocks.every((b) => b.type === "heading-underline");
    if (contentless && next && next.depth > sec.depth && sec.headingLine !== null) {
      carried ??= sec.headingLine;
      return;
    }
    const units: Unit[] = [];
    const headStart = carried ?? sec.headingLine;
    if (headStart !== null && sec.headingLine !== null) units.push({ startLine: headStart, endLine: sec.headingLine });
    carried = null;
    for (const b of sec.blocks) {
      if (b.type === "heading-underline" && units.length > 0) {
        units[units.length - 1].endLine = b.endLine;
        continue;
      }
      units.push({ startLine: b.startLine, endLine: b.endLine });
    }
    if (units.length === 0) return;
    const first = units[0].startLine;
    const last = units[units.length - 1].endLine;
    if (spanLength(first, last) <= max) {
      emit(slice(first, last), sec.path, first, last);
      return;
    }
    // Split overlong units at lines, then overlong lines into pieces.
    const fine: Unit[] = [];
    for (const u of units) {
      if (spanLength(u.startLine, u.endLine) <= max) {
        fine.push(u);
        continue;
      }
      for (let n = u.startLine; n <= u.endLine; n++) {
        const t = lineText(n);
        if (t.length <= max) fine.push({ startLine: n, endLine: n });
        else fine.push(...cutLine(t, n, max));
      }
    }
    let open: Unit | null = null;
    const flush = () => {
      if (!open) return;
      const text = open.piece ?? slice(open.startLine, open.endLine);
      if (text.trim() !== "") emit(text.replace(/^\n+|\n+$/g, ""), sec.path, open.startLine, open.endLine);
      open = null;
    };
    for (const u of fine) {
      if (open && !open.piece && !u.piece && spanLength(open.startLine, u.endLine) <= max) {
        open = { startLine: open.startLine, endLine: u.endLine };
        continue;
      }
      flush();
      open = { ...u };
    }
    flush();
  });
  return chunks;
}
