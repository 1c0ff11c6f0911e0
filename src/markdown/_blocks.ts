/**
 * The block structure of a markdown body in time linear in its length
 * (docs/limits.md "Markdown"; STYLE rule 17). remark is superlinear on some
 * inputs: inline constructs (`[x]: ` or `- [x] ` repeated: 3.7 s at 100 K
 * characters, 24 s at 400 K; emphasis runs, bracket chains), setext headings
 * one after another, and containers nested per character (`>>>>…`,
 * `1. 1. 1. …`). So:
 * - blocks are parsed with remark's inline constructs off (this module only
 *   needs block types, line spans and code blocks); a heading's text, the one
 *   inline result used, is parsed on its own line when it is short;
 * - a body is parsed in segments of about `MARKDOWN_LIMITS.segmentChars`, cut
 *   only where no block can continue (after a blank line or a heading, outside
 *   fenced code and multi-line HTML, not before a list item), so a document
 *   under that size parses exactly as one piece;
 * - container nesting deeper than `MARKDOWN_LIMITS.nesting` on one line is
 *   refused with 400 `markdown_too_complex` before any parse;
 * - inline code spans (masked for the annotation scan) are found by a linear
 *   scan of backtick runs.
 */
import { remark } from "remark";
import { MemoryError } from "../core/errors.ts";

/** Budgets of the markdown parse (docs/limits.md "Markdown"). */
export const MARKDOWN_LIMITS = {
  /** Containers (block quotes, list items) opened on one line. */
  nesting: 32,
  /** Target size of one parse segment. */
  segmentChars: 2_000,
  /** A segment that found no clean cut by this many times the target is cut at the next line end. */
  hardSplit: 4,
  /** A heading longer than this keeps its raw text (its inline markup is not parsed). */
  headingInlineChars: 1_000,
} as const;

/** The slice of mdast this module reads; typed locally so no type package is needed. */
export interface MdNode {
  type: string;
  depth?: number;
  value?: string;
  alt?: string;
  children?: MdNode[];
  position?: { start: { line: number; offset?: number }; end: { line: number; offset?: number } };
}

const INLINE = ["attention", "autolink", "characterEscape", "characterReference", "codeText", "hardBreakEscape", "htmlText", "labelEnd", "labelStartImage", "labelStartLink"];
const blockParser = remark().data("micromarkExtensions", [{ disable: { null: INLINE } }]);
const fullParser = remark();

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HTML_OPEN = /^ {0,3}<(?:(script|pre|style|textarea)(?:[\s>]|$)|(!--)|(\?)|(![A-Za-z])|(!\[CDATA\[))/i;
const HTML_CLOSE = [/<\/(?:script|pre|style|textarea)>/i, /-->/, /\?>/, />/, /\]\]>/];
const LIST_START = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)/;
const HEADING_END = /^ {0,3}(?:#{1,6}(?:[ \t].*)?|=+[ \t]*|-+[ \t]*)$/;
const THEMATIC = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/** Refuses a line opening more than `MARKDOWN_LIMITS.nesting` containers (400 `markdown_too_complex`). */
function checkNesting(lines: string[], firstLine: number): void {
  const refuse = (i: number) => {
    throw new MemoryError("markdown_too_complex", `Line ${firstLine + i} opens more than ${MARKDOWN_LIMITS.nesting} nested block quotes or list items`, {
      limit: "nesting", max: MARKDOWN_LIMITS.nesting, line: firstLine + i,
    });
  };
  for (const [i, line] of lines.entries()) {
    if (line.length < MARKDOWN_LIMITS.nesting * 2 || THEMATIC.test(line)) continue;
    // Lists nest by indentation too: a list item indented past 4 columns per allowed level is that deep or deeper.
    const indent = /^[ \t]*/.exec(line)![0].replaceAll("\t", "    ").length;
    if (indent > MARKDOWN_LIMITS.nesting * 4 && LIST_START.test(line.trimStart())) refuse(i);
    let depth = 0;
    let p = 0;
    for (;;) {
      let q = p;
      while (q < line.length && q - p < 4 && (line[q] === " " || line[q] === "\t")) q++;
      const c = line[q];
      if (c === ">") p = q + 1;
      else if (c === "-" || c === "+" || c === "*") {
        if (q + 1 < line.length && line[q + 1] !== " " && line[q + 1] !== "\t") break;
        p = q + 1;
      } else if (c !== undefined && c >= "0" && c <= "9") {
        let r = q;
        while (r < line.length && r - q < 9 && line[r]! >= "0" && line[r]! <= "9") r++;
        if ((line[r] !== "." && line[r] !== ")") || (r + 1 < line.length && line[r + 1] !== " " && line[r + 1] !== "\t")) break;
        p = r + 1;
      } else break;
      if (++depth > MARKDOWN_LIMITS.nesting) refuse(i);
    }
  }
}

/** Line indexes where a new segment may start, once the current one is large enough. */
function segmentStarts(lines: string[]): number[] {
  const starts = [0];
  let size = 0;
  let fence: string | undefined;
  let html: RegExp | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (i > 0 && size >= MARKDOWN_LIMITS.segmentChars && fence === undefined && html === undefined) {
      const prev = lines[i - 1]!;
      const clean = line.trim() !== "" && !/^[ \t]/.test(line) && !LIST_START.test(line) && !line.startsWith(">") &&
        (prev.trim() === "" || (HEADING_END.test(prev) && !/^[ \t]/.test(prev)));
      // A block with no such place for `hardSplit` segments (a hostile wall of one construct) is cut at a line end:
      // the only cost is that block reading as two.
      if (clean || size >= MARKDOWN_LIMITS.segmentChars * MARKDOWN_LIMITS.hardSplit) {
        starts.push(i);
        size = 0;
      }
    }
    size += line.length + 1;
    if (fence !== undefined) {
      const m = FENCE.exec(line);
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.slice(m[0].length).trim() === "") fence = undefined;
      continue;
    }
    if (html !== undefined) {
      if (html.test(line)) html = undefined;
      continue;
    }
    const f = FENCE.exec(line);
    if (f && !(f[1]![0] === "`" && line.slice(f[0].length).includes("`"))) {
      fence = f[1]!;
      continue;
    }
    const h = HTML_OPEN.exec(line);
    if (h) {
      const close = HTML_CLOSE[h.slice(1).findIndex((g) => g !== undefined)]!;
      if (!close.test(line.slice(h[0].length))) html = close;
    }
  }
  return starts;
}

function shift(node: MdNode, lines: number, offset: number): void {
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.position) {
      n.position.start.line += lines;
      n.position.end.line += lines;
      if (n.position.start.offset !== undefined) n.position.start.offset += offset;
      if (n.position.end.offset !== undefined) n.position.end.offset += offset;
    }
    for (const c of n.children ?? []) stack.push(c);
  }
}

/** Plain text of a node's inline content (text, code, image alt; breaks as spaces). */
export function plainText(node: MdNode): string {
  if (node.type === "text" || node.type === "inlineCode") return node.value ?? "";
  if (node.type === "image") return node.alt ?? "";
  if (node.type === "break") return " ";
  return (node.children ?? []).map(plainText).join("");
}

const INLINE_SYNTAX = /[*_[\]!<>&`\\]/;
const HEADING_BATCH = 200;

/**
 * Heading texts: each heading's inline content (raw in the block parse) parsed as the heading of its own, in batches
 * of `HEADING_BATCH` (one remark call each), so inline markup reads as before (`# Install *fast*` → `Install fast`).
 * A heading without inline syntax is its raw text; one longer than `headingInlineChars` stays raw (bounded cost).
 */
export function headingTexts(headings: readonly MdNode[]): string[] {
  const out = headings.map((h) => plainText(h).trim());
  const todo = out.map((raw, i) => ({ raw, i })).filter((h) => INLINE_SYNTAX.test(h.raw) && h.raw.length <= MARKDOWN_LIMITS.headingInlineChars);
  for (let k = 0; k < todo.length; k += HEADING_BATCH) {
    const batch = todo.slice(k, k + HEADING_BATCH);
    const doc = batch.map((h) => `# ${h.raw.replace(/[\r\n]+/g, " ")}`).join("\n\n");
    const nodes = ((fullParser.parse(doc) as unknown as MdNode).children ?? []).filter((n) => n.type === "heading");
    // Each line of the batch is one ATX heading; should the count differ, the raw texts stand.
    if (nodes.length !== batch.length) continue;
    batch.forEach((h, j) => { out[h.i] = plainText(nodes[j]!).trim(); });
  }
  return out;
}

/** The top-level mdast of `body` (inline content unparsed), parsed in bounded segments. */
export function parseBlocks(body: string, firstLine = 1): MdNode {
  const lines = body.split("\n");
  checkNesting(lines, firstLine);
  const starts = segmentStarts(lines);
  const root: MdNode = { type: "root", children: [] };
  let offset = 0;
  for (const [k, start] of starts.entries()) {
    const end = starts[k + 1] ?? lines.length;
    const text = lines.slice(start, end).join("\n") + (end < lines.length ? "\n" : "");
    const tree = blockParser.parse(text) as unknown as MdNode;
    for (const c of tree.children ?? []) {
      shift(c, start, offset);
      root.children!.push(c);
    }
    offset += text.length;
  }
  return root;
}

/**
 * Inline code spans of `text` as [start, end) offsets (plus `base`): a backtick run opens a span closed by the next
 * run of the same length (CommonMark 6.1). Linear: each run's next same-length run is found by one backward pass.
 */
export function codeSpans(text: string, base: number, out: [number, number][]): void {
  const runs: { at: number; len: number }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) !== 96) continue;
    let j = i;
    while (j < text.length && text.charCodeAt(j) === 96) j++;
    runs.push({ at: i, len: j - i });
    i = j - 1;
  }
  const next = new Array<number>(runs.length).fill(-1);
  const seen = new Map<number, number>();
  for (let r = runs.length - 1; r >= 0; r--) {
    next[r] = seen.get(runs[r]!.len) ?? -1;
    seen.set(runs[r]!.len, r);
  }
  for (let r = 0; r < runs.length;) {
    const escaped = runs[r]!.at > 0 && text[runs[r]!.at - 1] === "\\";
    const close = escaped ? -1 : next[r]!;
    if (close < 0) {
      r++;
      continue;
    }
    out.push([base + runs[r]!.at, base + runs[close]!.at + runs[close]!.len]);
    r = close + 1;
  }
}
