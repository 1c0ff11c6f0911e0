/**
 * File sources (SPEC §2.1 ingest kind `vault`, §4.4 `POST /sources/reconcile`):
 * the store side of the vault binding. A vault note goes through the
 * markdown door (`/ingest/markdown`: front matter out of the chunk text and
 * into `meta.frontmatter`, heading-aware chunks with line spans, screen,
 * graph edges from annotations, tags and aliases) stamped `vault`, so every
 * file door stores what `/ingest/markdown` stores for the same file. The
 * file on disk stays the source of truth: the source row keeps its hash
 * (guarding moves and write-back of record files), and a changed note's
 * chunks whose labels went stale (title, front matter, line spans, path)
 * are replaced in the write's transaction. Every step writes an audit row.
 * A deleted
 * or changed file leaves orphan chunks behind; `reconcile()` sweeps them
 * (each with a tombstone and an audit row, through `DELETE /memory/{id}`'s
 * path). Only chunks stamped `vault` are swept: a note whose text equals
 * memory written through another door only loses its link.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { MarkdownIngestOptions, MarkdownIngestResult } from "../ingest/ingest-markdown.ts";
import type { MarkdownInput } from "../ingest/ingest-schema.ts";
import { deleteMemory } from "../lifecycle/delete-memory.ts";
import { parseMarkdown } from "../markdown/mod.ts";
import { getChunk } from "../store/chunks.ts";
import { linkedFromConnector } from "../store/connectors.ts";
import type { Db } from "../store/db.ts";
import type { Chunk, NewChunk } from "../core/types.ts";
import {
  chunksOfSource, chunksOwnedBySource, dropStaleLinks, type FileSource, findFileSource, listFileSources, listOrphanChunks, markFileSourceDeleted, moveFileSource,
  purgeEmptyDeletedSources, setSourceChunks, unlinkChunkFromSources, upsertFileSource,
} from "../store/file-sources.ts";

export type { FileSource } from "../store/file-sources.ts";

/** Outcome of ingesting one file. */
export interface FileIngest {
  sourceId: number;
  chunkIds: number[];
  created: number;
  duplicate: number;
}

/** The file-source operations. */
export interface SourceService {
  list(kind: string, root: string): Promise<FileSource[]>;
  /** Ingests a note's current content and makes it the source's content. */
  ingestFile(f: { kind: string; root: string; path: string; content: string; domain?: string }): Promise<FileIngest>;
  /** Records a file the store wrote (or a record file it read) as the source of a UMP record. */
  linkRecordFile(f: { kind: string; root: string; path: string; content: string; recordId: string }): Promise<void>;
  moveFile(s: FileSource, to: string): Promise<void>;
  deleteFile(s: FileSource): Promise<void>;
  /** Sweeps orphans of deleted or changed sources. */
  reconcile(): Promise<{ swept: number[]; unlinked: number[]; sources_removed: number }>;
  /** The hash recorded for file content (xxh3 of the bytes, the chunk content hash). */
  hashOf(content: string): Promise<string>;
}

/** Dependencies. */
export interface SourceDeps {
  db: Db;
  write: WriteContext;
  clock: () => Date;
  audit: AuditService;
  /** The markdown door (`/ingest/markdown`), stamping chunks `vault`. */
  ingestMarkdown(body: MarkdownInput, opts: Omit<MarkdownIngestOptions, "graph">): Promise<MarkdownIngestResult>;
}

/** Title of a note: front matter `title`, else its first heading, else its file name. */
export function noteTitle(path: string, content: string): string {
  const { frontmatter: fm, headings } = parseMarkdown(content);
  if (typeof fm.title === "string" && fm.title.trim()) return fm.title.trim().slice(0, 500);
  const h = headings.find((x) => x.text.trim());
  if (h) return h.text.trim().slice(0, 500);
  const base = path.split("/").pop() ?? path;
  return base.replace(/\.(md|markdown)$/i, "") || base;
}

/** Canonical JSON (sorted keys) of a chunk's labels: what a fresh ingest of the same file would store beside the text. */
function labelsOf(c: { title?: string; source: string; meta?: Record<string, unknown> }): string {
  const { screen: _s, owner: _o, ump_id: _u, ...meta } = c.meta ?? {};
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : v !== null && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  return JSON.stringify(sort({ title: c.title ?? null, source: c.source, meta }));
}

/** True when a stored chunk carries the labels a fresh ingest would give it. */
function sameLabels(stored: Chunk, fresh: NewChunk): boolean {
  return labelsOf(stored) === labelsOf(fresh);
}

/** Builds the service. */
export function createSourceService(d: SourceDeps): SourceService {
  const now = () => d.clock().toISOString();
  return {
    list: (kind, root) => listFileSources(d.db.client, kind, root),
    hashOf: (content) => xxh3Hex(content),
    async ingestFile(f) {
      const body: MarkdownInput = { title: noteTitle(f.path, f.content), content: f.content };
      if (f.domain) body.domain = f.domain;
      // The note's own earlier chunks whose labels no longer match the file are replaced, so the stored note equals a
      // fresh ingest of the file whatever its history (a watch that saw every save ends where one reconcile ends).
      const had = await findFileSource(d.db.client, f.kind, f.root, f.path);
      const owned = new Set(had ? await chunksOwnedBySource(d.db.client, had.id) : []);
      const r = await d.ingestMarkdown(body, {
        kind: "vault", sourceLink: f.path,
        replacing: { replace: (stored, fresh) => owned.has(stored.id) && stored.source === "vault" && !sameLabels(stored, fresh), reason: "source_changed" },
      });
      const out: FileIngest = { sourceId: 0, chunkIds: r.chunks.map((c) => c.id), created: 0, duplicate: 0 };
      for (const c of r.chunks) out[c.status === "created" ? "created" : "duplicate"]++;
      const hash = await xxh3Hex(f.content);
      const pathRef = await d.audit.ref("path", f.path);
      out.sourceId = await d.db.write(async (tx) => {
        const id = await upsertFileSource(tx, { kind: f.kind, root: f.root, path: f.path, hash, at: now() });
        await setSourceChunks(tx, id, out.chunkIds);
        await d.audit.append(tx, { action: "source_ingest", target: `source:${id}`, detail: { kind: f.kind, path_ref: pathRef, hash, chunks: out.chunkIds } });
        return id;
      });
      return out;
    },
    async linkRecordFile(f) {
      const hash = await xxh3Hex(f.content);
      const pathRef = await d.audit.ref("path", f.path);
      await d.db.write(async (tx) => {
        const id = await upsertFileSource(tx, { kind: f.kind, root: f.root, path: f.path, hash, recordId: f.recordId, at: now() });
        await setSourceChunks(tx, id, []);
        await d.audit.append(tx, { action: "source_record", target: `source:${id}`, detail: { kind: f.kind, path_ref: pathRef, hash, record: f.recordId } });
      });
    },
    async moveFile(s, to) {
      const refs = { from_ref: await d.audit.ref("path", s.path), to_ref: await d.audit.ref("path", to) };
      await d.db.write(async (tx) => {
        await moveFileSource(tx, s.id, to, now());
        await d.audit.append(tx, { action: "source_move", target: `source:${s.id}`, detail: refs });
      });
    },
    async deleteFile(s) {
      const pathRef = await d.audit.ref("path", s.path);
      await d.db.write(async (tx) => {
        const chunks = await chunksOfSource(tx, s.id);
        await markFileSourceDeleted(tx, s.id, now());
        await d.audit.append(tx, { action: "source_delete", target: `source:${s.id}`, detail: { path_ref: pathRef, chunks } });
      });
    },
    async reconcile() {
      const swept: number[] = [];
      const unlinked: number[] = [];
      for (;;) {
        const orphans = await listOrphanChunks(d.db.client, 500);
        if (!orphans.length) break;
        const unlink: number[] = [];
        for (const id of orphans) {
          const c = await getChunk(d.db.client, id);
          // Issue 15: a connector's superseded revisions and upstream-deleted items are swept too (chunks it stamped).
          if (c && (c.source === "vault" || (typeof c.meta?.connector === "string" && await linkedFromConnector(d.db.client, id)))) {
            await deleteMemory(d.write, id, "source_deleted"); // tombstone + audit; the UMP hook drops its links
            swept.push(id);
          } else {
            unlink.push(id);
          }
        }
        if (unlink.length) {
          // SPEC §1 item 5: the audit row commits with the change it records.
          await d.db.write(async (tx) => {
            for (const id of unlink) await unlinkChunkFromSources(tx, id);
            await d.audit.append(tx, { action: "sources_unlink", detail: { chunks: unlink } });
          });
          unlinked.push(...unlink);
        }
      }
      const removed = await d.db.write(async (tx) => {
        await dropStaleLinks(tx);
        const n = await purgeEmptyDeletedSources(tx);
        // A sweep that found nothing changes nothing, not even the audit log (reconcile is idempotent).
        // Summary row; the sweeps and unlinks above were each audited in their own transactions.
        if (swept.length || unlinked.length || n) await d.audit.append(tx, { action: "sources_reconcile", detail: { swept, unlinked, sources_removed: n } });
        return n;
      });
      return { swept, unlinked, sources_removed: removed };
    },
  };
}
