/**
 * Public API of the markdown folder: `parseMarkdown` reads front matter
 * (`readFrontMatter`, bounded YAML), headings and blocks (remark), `[[relation::entity]]`
 * annotations, wikilinks and inline tags; `chunkMarkdown` cuts a parsed
 * document into heading-aware chunks with exact line spans. Both are pure;
 * see `README.md` for the rules.
 */
export { chunkMarkdown, type ChunkOptions, DEFAULT_MAX_CHARS, type MarkdownChunk } from "./chunk-markdown.ts";
export {
  type Annotation,
  type BlockInfo,
  type HeadingInfo,
  type InlineTag,
  parseMarkdown,
  type ParsedMarkdown,
  type Wikilink,
} from "./parse-markdown.ts";
export { FRONT_MATTER_LIMITS, FrontMatterSyntaxError, readFrontMatter, type ReadFrontMatterOptions } from "./read-front-matter.ts";
