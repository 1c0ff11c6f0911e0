/**
 * Parses a markdown document for ingest (SPEC §2.6 edge sources, §4.2
 * `/ingest/markdown`): front matter with `readFrontMatter` (tags and aliases as
 * arrays or comma strings), top-level headings and blocks with remark in
 * linear time (`_blocks.ts`), and
 * `[[relation::entity]]` annotations, wikilinks and inline tags. Every line
 * number is 1-based in the original document, front matter included.
 */
import { codeSpans, headingTexts, type MdNode, parseBlocks } from "./_blocks.ts";
import { listField, splitFrontmatter } from "./_frontmatter.ts";
import { type Annotation, type InlineTag, lineIndex, maskRanges, scanInline, type Wikilink } from "./_inline-scan.ts";

export type { Annotation, InlineTag, Wikilink };

/** A top-level heading. */
export interface HeadingInfo {
  depth: number;
  text: string;
  line: number;
}

/** A top-level block of the body (paragraph, heading, code, list, ...), with its line span. */
export interface BlockInfo {
  type: string;
  startLine: number;
  endLine: number;
  /** Heading depth, for headings. */
  depth?: number;
  /** Heading text, for headings. */
  text?: string;
}

/** Everything `parseMarkdown` reads from a document. */
export interface ParsedMarkdown {
  frontmatter: Record<string, unknown>;
  /** Set when a front matter block was present but unusable (bad YAML, script language, too large). */
  frontmatterError?: string;
  /** Front matter `tags` (and `tag`), `#` prefixes removed, deduplicated. */
  tags: string[];
  /** Front matter `aliases` (and `alias`), deduplicated. */
  aliases: string[];
  body: string;
  bodyStartLine: number;
  headings: HeadingInfo[];
  blocks: BlockInfo[];
  annotations: Annotation[];
  wikilinks: Wikilink[];
  inlineTags: InlineTag[];
}

function codeRanges(node: MdNode, out: [number, number][]): void {
  if (node.type === "code" && node.position) {
    out.push([node.position.start.offset ?? 0, node.position.end.offset ?? 0]);
    return;
  }
  for (const c of node.children ?? []) codeRanges(c, out);
}

/** Parses front matter, headings, blocks, annotations, wikilinks and inline tags. */
export function parseMarkdown(text: string): ParsedMarkdown {
  const fm = splitFrontmatter(text);
  const tree = parseBlocks(fm.body, fm.bodyStartLine);
  const shift = fm.bodyStartLine - 1;
  const blocks: BlockInfo[] = [];
  const headings: HeadingInfo[] = [];
  const top = tree.children ?? [];
  const texts = headingTexts(top.filter((n) => n.type === "heading"));
  let h = 0;
  for (const node of top) {
    if (!node.position) continue;
    const block: BlockInfo = { type: node.type, startLine: node.position.start.line + shift, endLine: node.position.end.line + shift };
    if (node.type === "heading") {
      block.depth = node.depth ?? 1;
      block.text = texts[h++]!;
      headings.push({ depth: block.depth, text: block.text, line: block.startLine });
    }
    blocks.push(block);
  }
  const ranges: [number, number][] = [];
  codeRanges(tree, ranges);
  // Inline code spans of the other blocks (the block parse leaves inline content unparsed).
  for (const node of tree.children ?? []) {
    const p = node.position;
    if (node.type === "code" || !p || p.start.offset === undefined || p.end.offset === undefined) continue;
    codeSpans(fm.body.slice(p.start.offset, p.end.offset), p.start.offset, ranges);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const inline = scanInline(maskRanges(fm.body, ranges), lineIndex(fm.body, fm.bodyStartLine));
  const parsed: ParsedMarkdown = {
    frontmatter: fm.data,
    tags: listField(fm.data, ["tags", "tag"], true),
    aliases: listField(fm.data, ["aliases", "alias"], false),
    body: fm.body,
    bodyStartLine: fm.bodyStartLine,
    headings,
    blocks,
    ...inline,
  };
  if (fm.error !== undefined) parsed.frontmatterError = fm.error;
  return parsed;
}
