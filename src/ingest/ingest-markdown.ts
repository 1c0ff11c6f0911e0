/**
 * `POST /ingest/markdown` (SPEC §4.2): a titled markdown document, parsed
 * with `readFrontMatter` and remark and split into heading-aware chunks (each
 * keeps its heading path and 1-based line span for recall evidence). Chunks
 * are stamped `markdown` (or `vault` for the vault binding) and written in
 * one transaction. Frontmatter tags/aliases and `[[relation::entity]]`
 * annotations are kept (verbatim in storage, in chunk metadata) and handed
 * to the graph port. Deliberately not filtered by the memory hygiene.
 */
import { xxh3Hex } from "../core/content-hash.ts";
import { checkWork, paceWork } from "../core/deadline.ts";
import type { IngestKind, NewChunk } from "../core/types.ts";
import { parseWith } from "../core/schema.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { chunkMarkdown, DEFAULT_MAX_CHARS, type ParsedMarkdown } from "../markdown/mod.ts";
import { parseDocument } from "./parse-document.ts";
import type { Exec } from "../store/db.ts";
import { confidenceFor, originFor } from "./confidence.ts";
import type { WriteContext } from "./context.ts";
import { requireRegisteredDomain } from "./ingest-structured.ts";
import { MarkdownBody, type MarkdownInput } from "./ingest-schema.ts";
import { type Replacing, writeChunks } from "./write-chunk.ts";

/** What the graph port receives for one markdown document. */
export interface MarkdownGraphInput {
  domain: string;
  title: string;
  parsed: ParsedMarkdown;
  /** Created chunk ids with their heading paths (duplicates are absent). */
  chunks: { id: number; headingPath: string[]; text: string }[];
  now: string;
}

/** The graph port: turns a document into entities and edges inside the write transaction. */
export type MarkdownGraphPort = (tx: Exec, doc: MarkdownGraphInput) => Promise<{ entities: number; relations: number }>;

/** Options of one markdown ingest. */
export interface MarkdownIngestOptions {
  kind?: Extract<IngestKind, "markdown" | "vault">;
  /** Source link recorded for evidence (e.g. a vault-relative path). */
  sourceLink?: string;
  maxChars?: number;
  graph?: MarkdownGraphPort;
  /** Stored chunks this write replaces or removes in its transaction (the file doors: `write-chunk.ts` `Replacing`). */
  replacing?: Replacing;
}

/** Per-chunk reply entry. */
export interface MarkdownChunkResult {
  id: number;
  status: "created" | "duplicate";
  heading_path: string[];
  line_start: number;
  line_end: number;
  flagged?: boolean;
}

/** The reply (this project's shape, consistent with `/ingest`). */
export interface MarkdownIngestResult {
  id: number;
  status: "created" | "duplicate";
  domain: string;
  chunks: MarkdownChunkResult[];
  entitiesAdded: number;
  relationsAdded: number;
}

/**
 * The document without its front matter (and the blank lines after it), verbatim, with its line span;
 * the whole content when there is no front matter; undefined when nothing but front matter is left.
 */
function bodySpan(content: string, parsed: ParsedMarkdown): { text: string; startLine: number; endLine: number } | undefined {
  const endLine = content.split("\n").length;
  if (parsed.bodyStartLine <= 1) return { text: content, startLine: 1, endLine };
  const lines = parsed.body.split("\n");
  let a = 0;
  while (a < lines.length && lines[a].trim() === "") a++;
  if (a === lines.length) return undefined;
  return { text: lines.slice(a).join("\n"), startLine: parsed.bodyStartLine + a, endLine };
}

/** A validated markdown document turned into the chunks `writeChunks` takes (nothing written yet). */
export interface PreparedMarkdown {
  title: string;
  domain: string;
  parsed: ParsedMarkdown;
  parts: { text: string; headingPath: string[]; startLine: number; endLine: number }[];
  chunks: NewChunk[];
}

/**
 * Validates a `/ingest/markdown` body and builds its chunks without writing them: the connector sync (issue 15)
 * writes the chunks of a whole page with its cursor in one transaction. `meta` is merged into every chunk's meta.
 */
export async function prepareMarkdown(ctx: WriteContext, raw: MarkdownInput, opts: MarkdownIngestOptions & { meta?: Record<string, unknown> } = {}): Promise<PreparedMarkdown> {
  const { title, content, domain = GLOBAL_DOMAIN, source: sourceRef } = parseWith(MarkdownBody, raw);
  await requireRegisteredDomain(ctx, domain);
  const kind = opts.kind ?? "markdown";
  const parsed = await parseDocument(ctx, content);
  checkWork(ctx.work);
  const pieces = chunkMarkdown(parsed, { maxChars: opts.maxChars });
  // SPEC §8: each stage and each chunk below is a slice boundary of the request's deadline.
  await paceWork(ctx.work);
  const span = bodySpan(content, parsed);
  // Issue 22 item 5 (docs/write-doors.md "Markdown chunking"): a body that fits in `maxChars` is one chunk, whatever
  // its headings; front matter is never chunk text (it is every chunk's `meta.frontmatter`), through every door
  // (the file doors included). A note that is only front matter keeps the document verbatim.
  const parts = span === undefined
    ? [{ text: content, headingPath: pieces[0]?.headingPath ?? [], startLine: 1, endLine: content.split("\n").length }]
    : span.text.length <= (opts.maxChars ?? DEFAULT_MAX_CHARS) || pieces.length <= 1
    ? [{ text: span.text, headingPath: pieces[0]?.headingPath ?? [], startLine: span.startLine, endLine: span.endLine }]
    : pieces.map((p) => ({ text: p.text, headingPath: p.headingPath, startLine: p.startLine, endLine: p.endLine }));
  const docMeta: Record<string, unknown> = {};
  if (parsed.bodyStartLine > 2) docMeta.frontmatter = content.split("\n").slice(1, parsed.bodyStartLine - 2).join("\n");
  if (parsed.tags.length) docMeta.tags = parsed.tags;
  if (parsed.aliases.length) docMeta.aliases = parsed.aliases;
  const chunks: NewChunk[] = [];
  // Issue 22 item 2: the chunks of a split document name it (xxh3 of its text) and their place, so an export keeps the grouping.
  const docId = parts.length > 1 ? await xxh3Hex(content) : undefined;
  for (const [i, p] of parts.entries()) {
    await paceWork(ctx.work);
    const meta: Record<string, unknown> = { ...docMeta, heading_path: p.headingPath, line_start: p.startLine, line_end: p.endLine };
    if (docId !== undefined) meta.document = { id: `xxh3:${docId}`, index: i, count: parts.length };
    const ann = parsed.annotations.filter((a) => a.line >= p.startLine && a.line <= p.endLine).map((a) => a.raw);
    if (ann.length) meta.annotations = ann;
    if (opts.sourceLink) meta.source_link = opts.sourceLink;
    chunks.push({
      title, content: p.text, domain, contentHash: await xxh3Hex(p.text), source: kind, origin: originFor(kind, {}),
      confidence: confidenceFor(kind, sourceRef), flagged: false, meta: opts.meta ? { ...meta, ...opts.meta } : meta,
      ...(sourceRef ? { originSource: sourceRef } : {}),
    });
  }
  return { title, domain, parsed, parts, chunks };
}

/** Validates and writes one markdown document. */
export async function ingestMarkdown(ctx: WriteContext, raw: MarkdownInput, opts: MarkdownIngestOptions = {}): Promise<MarkdownIngestResult> {
  const { title, domain, parsed, parts, chunks } = await prepareMarkdown(ctx, raw, opts);
  let graph = { entities: 0, relations: 0 };
  const outcomes = await writeChunks(ctx, chunks, opts.graph
    ? async (tx, _first, now, created) => {
      const made = parts.flatMap((p, i) => (created[i] !== undefined ? [{ id: created[i]!, headingPath: p.headingPath, text: p.text }] : []));
      graph = await opts.graph!(tx, { domain, title, parsed, chunks: made, now });
    }
    : undefined, "ingest_markdown", undefined, undefined, opts.replacing);
  const results: MarkdownChunkResult[] = outcomes.map((o, i) => {
    const r: MarkdownChunkResult = { id: o.id, status: o.status, heading_path: parts[i].headingPath, line_start: parts[i].startLine, line_end: parts[i].endLine };
    if (o.chunk.flagged) r.flagged = true;
    return r;
  });
  const anyCreated = results.some((r) => r.status === "created");
  return {
    id: results[0].id, status: anyCreated ? "created" : "duplicate", domain, chunks: results,
    entitiesAdded: graph.entities, relationsAdded: graph.relations,
  };
}
