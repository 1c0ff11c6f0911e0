/**
 * Commits one page of a sync (issue 15): the page's new revisions (chunks through the `/ingest/markdown` preparation,
 * stamped `markdown`, origin `imported`), their source rows (kind `connector:{kind}`, root = instance, path = the
 * record's path, hash = the vendor revision), one audit row per changed source and the page's cursor — in ONE
 * transaction (STYLE rule 10), so a rerun resumes after the last committed page and nothing is half-written.
 * An unchanged revision is a no-op. Case records (`crmCase`) go to `memory.workflow.applyCase` first (their body is
 * untrusted: filed as a proposal, never stored as memory here); a 409 is counted and the sync carries on. A record
 * that breaks the text-field rule (`src/core/text-rule.ts`: NUL, lone surrogate) or whose front matter is over its
 * budget is refused on its own: counted in `records_refused`, named in `refused`, nothing of it written, so one bad
 * vendor item never stops a sync (the next sync tries it again).
 */
import type { AuditService } from "../audit/audit-service.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { findTextViolation } from "../core/text-rule.ts";
import type { NewChunk } from "../core/types.ts";
import type { WriteContext } from "../ingest/context.ts";
import { prepareMarkdown } from "../ingest/ingest-markdown.ts";
import type { MarkdownInput } from "../ingest/ingest-schema.ts";
import { writeChunks } from "../ingest/write-chunk.ts";
import { noteTitle } from "../sources/source-service.ts";
import { advanceCursor, sourceRevs } from "../store/connectors.ts";
import type { Exec } from "../store/db.ts";
import { setSourceChunks, upsertFileSource } from "../store/file-sources.ts";
import type { ConnectorPage } from "./vendor.ts";

/** What a page commit needs. */
export interface PageDeps {
  write: WriteContext;
  audit: AuditService;
  applyCase(envelope: unknown, o: { origin: string }): Promise<{ status: string }>;
}

/** Per-page counts. */
export interface PageCounts {
  records: number;
  created: number;
  revised: number;
  unchanged: number;
  cases_applied: number;
  cases_unchanged: number;
  cases_refused: number;
  /** Records refused for their own content (text-field rule, front matter budget). */
  records_refused: number;
}

/** A refused record: its path, the field and the reason (`nul`, `lone_surrogate`, or an error code). */
export interface RefusedRecord {
  path: string;
  field: string;
  reason: string;
}

/** A page's counts and its refused records. */
export interface PageOutcome {
  counts: PageCounts;
  refused: RefusedRecord[];
}

/** The refusal of one record for its own content, or undefined when `e` is about something else. */
function refusalOf(path: string, e: unknown): RefusedRecord | undefined {
  if (!isMemoryError(e)) return undefined;
  const reason = e.details?.reason;
  if (reason === "nul" || reason === "lone_surrogate") return { path, field: String(e.details?.field ?? "markdown"), reason };
  if (e.code === "frontmatter_too_large") return { path, field: "frontmatter", reason: e.code };
  return undefined;
}

/** Commits `page` for connector `id` (`kind`/`instance`); `domain` is the config's target domain, if any. */
export async function commitPage(
  d: PageDeps, c: { id: number; kind: string; instance: string; domain?: string }, page: ConnectorPage,
): Promise<PageOutcome> {
  const counts: PageCounts = {
    records: page.records.length, created: 0, revised: 0, unchanged: 0, cases_applied: 0, cases_unchanged: 0, cases_refused: 0, records_refused: 0,
  };
  const refused: RefusedRecord[] = [];
  const refuse = (r: RefusedRecord) => {
    counts.records_refused++;
    refused.push(r);
  };
  const sourceKind = `connector:${c.kind}`;
  const label = `${c.kind}:${c.instance}`;
  const byPath = new Map<string, (typeof page.records)[number]>();
  for (const r of page.records) {
    if (typeof r?.path !== "string" || !r.path || r.path.length > 500 || typeof r.rev !== "string" || typeof r.markdown !== "string") {
      throw new MemoryError("connector_record_invalid", "A vendor record lacks a path, a revision or its markdown");
    }
    byPath.set(r.path, r); // a page listing the same item twice keeps its last revision
  }
  const known = await sourceRevs(d.write.db.client, sourceKind, c.instance, [...byPath.keys()]);
  const changed = [...byPath.values()].filter((r) => {
    const k = known.get(r.path);
    return !(k && k.active && k.rev === r.rev);
  });
  counts.unchanged = byPath.size - changed.length;

  // Cases first: applyCase is idempotent on (case_ref, updated_rev), so a rerun after a crash answers "unchanged".
  for (const r of changed) {
    if (!r.crmCase) continue;
    const bad = findTextViolation(r.crmCase, { at: "case" });
    if (bad) {
      refuse({ path: r.path, ...bad });
      continue;
    }
    try {
      const out = await d.applyCase(r.crmCase, { origin: `connector:${c.kind}` });
      counts[out.status === "unchanged" ? "cases_unchanged" : "cases_applied"]++;
    } catch (e) {
      if (isMemoryError(e) && (e.status ?? 0) === 409) counts.cases_refused++;
      else throw e;
    }
  }

  const chunks: NewChunk[] = [];
  const spans: { path: string; rev: string; from: number; to: number }[] = [];
  for (const r of changed) {
    if (r.crmCase) {
      if (refused.some((x) => x.path === r.path)) continue;
      spans.push({ path: r.path, rev: r.rev, from: chunks.length, to: chunks.length }); // provenance only, no memory
      continue;
    }
    const bad = findTextViolation(r.markdown, { at: "markdown" });
    if (bad) {
      refuse({ path: r.path, ...bad });
      continue;
    }
    let prep: Awaited<ReturnType<typeof prepareMarkdown>>;
    try {
      const body: MarkdownInput = { title: noteTitle(r.path, r.markdown), content: r.markdown, source: `connector:${label}`.slice(0, 64) };
      if (c.domain) body.domain = c.domain;
      prep = await prepareMarkdown(d.write, body, { kind: "markdown", sourceLink: r.path, meta: { connector: label, connector_rev: r.rev } });
    } catch (e) {
      const why = refusalOf(r.path, e);
      if (!why) throw e;
      refuse(why);
      continue;
    }
    spans.push({ path: r.path, rev: r.rev, from: chunks.length, to: chunks.length + prep.chunks.length });
    chunks.push(...prep.chunks);
  }

  // Paths may name a person (a vault note, a vendor item): the append-only audit row keeps their salted hash (issue 35).
  const pathRefs = new Map<string, string>();
  for (const s of spans) pathRefs.set(s.path, await d.audit.ref("path", s.path));
  const after = async (tx: Exec, ids: number[]) => {
    const at = d.write.clock().toISOString();
    for (const s of spans) {
      const prior = known.get(s.path);
      const sourceId = await upsertFileSource(tx, { kind: sourceKind, root: c.instance, path: s.path, hash: s.rev, at });
      const linked = ids.slice(s.from, s.to);
      await setSourceChunks(tx, sourceId, linked);
      await d.audit.append(tx, {
        action: "connector_record", target: `source:${sourceId}`,
        detail: { connector: label, path_ref: pathRefs.get(s.path), rev: s.rev, previous_rev: prior?.rev ?? null, chunks: linked },
      });
      counts[prior ? "revised" : "created"]++;
    }
    await advanceCursor(tx, c.id, page.cursor, changed.length);
  };
  if (chunks.length) await writeChunks(d.write, chunks, undefined, "connector_ingest", { connector: label }, after);
  else await d.write.db.write((tx) => after(tx, []));
  return { counts, refused };
}
