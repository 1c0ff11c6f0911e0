/**
 * The markdown graph port (SPEC §2.6 edge sources 1–3, §4.2
 * `/ingest/markdown`): turns one parsed document into entities and
 * bi-temporal edges inside the document's write transaction.
 *
 * - The note itself is an entity (its title, type `note`), linked to every
 *   chunk of the note.
 * - `[[relation::entity]]` annotations: `note -relation-> entity`, source
 *   `annotation`, from the chunk holding the annotation (code is ignored);
 *   likewise Basic Memory `- relation [[Target]]` list items, and the
 *   `#tags` of `- [category] text` observations as `tagged_with` (issue 22).
 * - Front matter `tags` → `note tagged_with tag`, `aliases` → `alias
 *   alias_of note`, source `frontmatter`, from the document's first created chunk.
 * - Nested headings → `heading part_of parent heading` (top-level headings
 *   `part_of` the note), source `heading`, from the first chunk under the
 *   heading. Heading entities are scoped to the note (`Note - Heading`).
 * - The deterministic linker's verb patterns over each chunk's prose,
 *   source `linker`, from that chunk.
 * Each chunk is also linked to the entities it produced edges for, its
 * heading path, its wikilink targets and the domain's entities its text
 * mentions (`chunk-mentions.ts`). Only created chunks take part: a duplicate
 * chunk already produced its edges when it was first written.
 */
import { xxh3Hex } from "../core/content-hash.ts";
import { checkWork, paceWork, type WorkScope } from "../core/deadline.ts";
import type { MarkdownGraphInput, MarkdownGraphPort } from "../ingest/ingest-markdown.ts";
import { upsertEdge } from "../ingest/write-graph-rows.ts";
import type { Exec } from "../store/db.ts";
import { entitiesByNames } from "../store/graph-read.ts";
import { ensureEntity, findEntity, linkEntityChunks } from "../store/graph-rows.ts";
import { mentionNames } from "./chunk-mentions.ts";
import { emptyDelta, type GraphSink } from "./graph-delta.ts";
import { extractAnnotations, extractRelations, headingPartOf, taxonomyEdges } from "./linker.ts";
import { readVaultLines } from "./relation-lines.ts";
import { cleanEntityName, truncateEntityName } from "./validate.ts";

/** Where an edge of a markdown document came from (stored in `edge_source`). */
export type MarkdownEdgeSource = "annotation" | "frontmatter" | "heading" | "linker";

/** One planned edge: display names, type, source and producing chunk. */
export interface PlannedEdge {
  from: string;
  type: string;
  to: string;
  source: MarkdownEdgeSource;
  chunkId: number;
}

/** The pure plan of one document's graph rows. */
export interface MarkdownGraphPlan {
  /** Entities by key (lowercased name): display form and optional type. */
  entities: Map<string, { display: string; type?: string }>;
  edges: PlannedEdge[];
  /**
   * Per created chunk: the entity keys it is about (note title, heading path), those it is linked to
   * directly (edge endpoints it produced), and candidate mention keys (linked only if they exist).
   */
  chunks: { id: number; subjects: Set<string>; direct: Set<string>; mentions: string[] }[];
}

/** Drops a leading front matter block from a chunk that holds the whole document. */
function proseOf(text: string, bodyStartLine: number): string {
  if (bodyStartLine <= 1 || !text.startsWith("---")) return text;
  return text.split("\n").slice(bodyStartLine - 1).join("\n");
}

/**
 * Plans a document's entities and edges (pure; see the module comment for the rules). `check`, when given, is
 * called per heading and per chunk (the request deadline's check, which throws to stop; SPEC §8).
 */
export function planMarkdownGraph(doc: Omit<MarkdownGraphInput, "now">, check?: () => void): MarkdownGraphPlan {
  const entities = new Map<string, { display: string; type?: string }>();
  const add = (display: string, type?: string): string => {
    const key = display.toLowerCase();
    const had = entities.get(key);
    if (!had) entities.set(key, type === undefined ? { display } : { display, type });
    else if (had.type === undefined && type !== undefined) had.type = type;
    return key;
  };
  const edges: PlannedEdge[] = [];
  const chunks = doc.chunks.map((c) => ({
    id: c.id, subjects: new Set<string>(), direct: new Set<string>(), mentions: [] as string[], text: proseOf(c.text, doc.parsed.bodyStartLine),
    headingPath: c.headingPath,
  }));
  if (chunks.length === 0) return { entities, edges, chunks: [] };
  const byId = new Map(chunks.map((c) => [c.id, c] as const));
  const edge = (from: string, type: string, to: string, source: MarkdownEdgeSource, chunkId: number) => {
    const f = add(from), t = add(to);
    edges.push({ from, type, to, source, chunkId });
    byId.get(chunkId)!.direct.add(f).add(t);
  };

  const note = truncateEntityName(doc.title);
  if (note !== null) {
    const key = add(note, "note");
    for (const c of chunks) c.subjects.add(key);
  }
  const first = chunks[0].id;
  for (const e of taxonomyEdges(doc.title, doc.parsed.tags, doc.parsed.aliases)) {
    if (e.type === "tagged_with") add(e.to, "tag");
    edge(e.from, e.type, e.to, "frontmatter", first);
  }
  if (note !== null) {
    for (const a of doc.parsed.annotations) {
      const holder = chunks.find((c) => c.text.includes(a.raw));
      const rel = extractAnnotations(a.raw).relations[0];
      if (holder === undefined || rel === undefined || rel.to.toLowerCase() === note.toLowerCase()) continue;
      edge(note, rel.type, rel.to, "annotation", holder.id);
    }
    // Issue 22 item 4: Basic Memory relation list items and observation tags (`relation-lines.ts`).
    for (const c of chunks) {
      const v = readVaultLines(c.text);
      for (const r of v.relations) if (r.to.toLowerCase() !== note.toLowerCase()) edge(note, r.type, r.to, "annotation", c.id);
      for (const tag of v.tags) {
        add(tag, "tag");
        edge(note, "tagged_with", tag, "annotation", c.id);
      }
    }
  }
  // Issue 22 item 4: a heading entity belongs to its document ("Alice - Observations"), so boilerplate headings
  // never join unrelated notes; a heading that names the note is the note itself.
  const scoped = (h: string) => {
    const clean = cleanEntityName(h.replace(/[*_`]/g, ""));
    if (clean === null || note === null || clean.toLowerCase() === note.toLowerCase()) return clean ?? h;
    return truncateEntityName(`${note} - ${clean}`) ?? clean;
  };
  // Memoised: a note of n sections asks for each heading's name once, not once per other heading (n² → n).
  const names = new Map<string, string | null>();
  const headingName = (h: string): string | null => {
    let n = names.get(h);
    if (n === undefined) names.set(h, (n = cleanEntityName(scoped(h))));
    return n;
  };
  const headings = [...(note !== null ? [{ depth: 0, text: note }] : []), ...doc.parsed.headings.map((h) => ({ depth: h.depth, text: scoped(h.text) }))];
  // The first heading, and the first chunk whose heading path holds it, by lowercased name (what `find` returned).
  const headingOf = new Map<string, (typeof doc.parsed.headings)[number]>();
  for (const h of doc.parsed.headings) {
    const n = headingName(h.text)?.toLowerCase();
    if (n !== undefined && !headingOf.has(n)) headingOf.set(n, h);
  }
  const holderOf = new Map<string, (typeof chunks)[number]>();
  for (const c of chunks) {
    for (const h of c.headingPath) {
      const n = headingName(h)?.toLowerCase();
      if (n !== undefined && !holderOf.has(n)) holderOf.set(n, c);
    }
  }
  for (const e of headingPartOf(headings)) {
    check?.();
    const heading = headingOf.get(e.from.toLowerCase());
    // A short note is one chunk (item 5), so a sub-heading's holder is the chunk whose text holds its line.
    const holder = holderOf.get(e.from.toLowerCase()) ?? (heading ? chunks.find((c) => c.text.includes(heading.text)) : undefined);
    if (holder !== undefined) edge(e.from, e.type, e.to, "heading", holder.id);
  }
  for (const c of chunks) {
    check?.();
    for (const h of c.headingPath) {
      const n = headingName(h);
      if (n !== null) c.subjects.add(add(n, note !== null && n.toLowerCase() !== note.toLowerCase() ? "heading" : undefined));
    }
    for (const r of extractRelations(c.text)) edge(r.from, r.type, r.to, "linker", c.id);
    const names = new Set(mentionNames(c.text));
    for (const w of doc.parsed.wikilinks) {
      const target = cleanEntityName(w.target);
      if (target !== null && c.text.includes(w.raw)) names.add(target.toLowerCase());
    }
    c.mentions = [...names].filter((n) => !c.direct.has(n) && !c.subjects.has(n));
  }
  return { entities, edges, chunks: chunks.map(({ id, subjects, direct, mentions }) => ({ id, subjects, direct, mentions })) };
}

/** Executes a plan inside the write transaction (paced by the request deadline, SPEC §8); returns the counts and the delta. */
async function writePlan(tx: Exec, domain: string, plan: MarkdownGraphPlan, now: string, work?: WorkScope) {
  const delta = emptyDelta();
  const ids = new Map<string, number>();
  let n = 0;
  const pace = () => (++n % 64 === 0 ? paceWork(work) : undefined);
  for (const [key, e] of plan.entities) {
    await pace();
    const { id } = await ensureEntity(tx, { domain, name: key, displayName: e.display, type: e.type }, now);
    ids.set(key, id);
    delta.entities.push((await findEntity(tx, domain, key))!);
  }
  for (const e of plan.edges) {
    await pace();
    await upsertEdge(tx, {
      domain, fromId: ids.get(e.from.toLowerCase())!, toId: ids.get(e.to.toLowerCase())!, type: e.type, chunkId: e.chunkId, now, edgeSource: e.source,
    }, delta);
  }
  const wanted = [...new Set(plan.chunks.flatMap((c) => c.mentions.filter((n) => !ids.has(n))))];
  const existing = new Map((await entitiesByNames(tx, domain, wanted)).map((e) => [e.name, e.id] as const));
  for (const c of plan.chunks) {
    await pace();
    const linked = new Map<number, boolean>();
    for (const k of c.subjects) linked.set(ids.get(k)!, true);
    for (const k of [...c.direct, ...c.mentions]) {
      const id = ids.get(k) ?? existing.get(k);
      if (id !== undefined && !linked.has(id)) linked.set(id, false);
    }
    const links = [...linked].map(([entityId, subject]) => ({ entityId, chunkId: c.id, subject }));
    await linkEntityChunks(tx, links);
    delta.links.push(...links);
  }
  return { counts: { entities: plan.entities.size, relations: plan.edges.length }, delta };
}

/** Builds the port `memory.setMarkdownGraph` registers; `sink` receives each document's delta; `work` paces it (SPEC §8). */
export function createMarkdownGraphPort(sink?: GraphSink, work?: WorkScope): MarkdownGraphPort {
  return async (tx, doc) => {
    const plan = planMarkdownGraph(doc, () => checkWork(work));
    if (plan.chunks.length === 0) return { entities: 0, relations: 0 };
    const { counts, delta } = await writePlan(tx, doc.domain, plan, doc.now, work);
    sink?.({ chunkId: doc.chunks[0].id, contentHash: await xxh3Hex(doc.chunks[0].text) }, delta);
    return counts;
  };
}
