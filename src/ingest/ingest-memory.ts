/**
 * Raw memory doors (SPEC §1 Input hygiene, §4.2): `POST /ingest/memory`
 * runs the reasoning-tag strip plus the skip rule per entry; deprecated
 * `POST /add` runs the strip only. Entries are stored with `source`
 * `memory`. Each entry is its own write: one bad entry never aborts the rest.
 */
import { isMemoryError } from "../core/errors.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import { requireCleanText } from "../core/text-rule.ts";
import type { NewChunk, Origin } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { cleanMemoryEntry } from "../hygiene/clean-memory-entry.ts";
import { stripReasoning } from "../hygiene/strip-reasoning.ts";
import { confidenceFor } from "./confidence.ts";
import type { WriteContext } from "./context.ts";
import { requireObject } from "./fields.ts";
import { requireRegisteredDomain } from "./ingest-structured.ts";
import { parseWith } from "../core/schema.ts";
import { EntryContent, MemoryBatchEnvelope, MemoryEntry, type MemoryDoorInput, type MemoryEntryInput } from "./memory-door-schema.ts";
import { validateContent } from "./validate-ingest.ts";
import { writeChunk } from "./write-chunk.ts";

/** One entry's outcome (this project's shape, consistent with `/ingest`). */
export interface EntryResult {
  id?: number;
  status: "created" | "duplicate" | "skipped" | "rejected" | "proposed";
  /** Set when the review posture filed the entry as a proposal (`status: proposed`). */
  proposal_id?: number;
  domain?: string;
  flagged?: boolean;
  reason?: string;
  error?: { code: string; message: string; details?: Record<string, unknown> };
}

interface Entry {
  content: string;
  title?: string;
  domain?: string;
  origin?: Origin;
}

function parseEntry(raw: unknown, defaults: { domain?: string; origin?: Origin }): Entry {
  // Refused before any entry is written, so a batch is never half-stored (NUL: see refuseNul).
  if (typeof raw === "string") return { content: parseWith(EntryContent, raw), ...defaults };
  const o = parseWith(MemoryEntry, raw);
  const e: Entry = { content: o.content };
  if (o.title !== undefined) e.title = o.title;
  const d = o.domain ?? defaults.domain;
  if (d !== undefined) e.domain = d;
  const origin = o.origin ?? defaults.origin;
  if (origin !== undefined) e.origin = origin;
  return e;
}

async function writeEntry(ctx: WriteContext, e: Entry, text: string, action: string): Promise<EntryResult> {
  const content = validateContent(text);
  const domain = e.domain ?? GLOBAL_DOMAIN;
  await requireRegisteredDomain(ctx, domain);
  // SPEC §1 write posture: under `review`, agent write-back files a proposal instead of memory.
  const door = action === "add" ? "/add" : "/ingest/memory";
  if (ctx.review?.route(door) === "proposal") {
    const p = await ctx.review.file({ content, title: e.title, domain, origin: e.origin ?? "agent", door, ingestKind: "memory" });
    return { status: "proposed", proposal_id: p.id, domain: p.domain };
  }
  const chunk: NewChunk = {
    content, domain, contentHash: await xxh3Hex(content), source: "memory",
    origin: e.origin ?? "agent", confidence: confidenceFor("memory", undefined), flagged: false,
  };
  if (e.title !== undefined) chunk.title = e.title;
  const out = await writeChunk(ctx, chunk, undefined, action);
  const r: EntryResult = { id: out.id, status: out.status, domain: out.domain };
  if (out.chunk.flagged) r.flagged = true;
  return r;
}

function failure(e: unknown): EntryResult {
  if (!isMemoryError(e) || e.code === "capacity_exceeded") throw e;
  return { status: "rejected", error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } };
}

/** Reads `{content, …}` (one entry) or `{entries: [...]}` (many, with body-level defaults) from a body. */
function readEntries(body: Record<string, unknown>): { entries: unknown[]; batch: boolean; defaults: { domain?: string; origin?: Origin } } {
  if (body.entries === undefined) return { entries: [body], batch: false, defaults: {} };
  // Body-level defaults apply to string entries as they are, so they are validated once here (issue 23 §2).
  const { entries, domain, origin } = parseWith(MemoryBatchEnvelope, body);
  const defaults: { domain?: string; origin?: Origin } = {};
  if (domain !== undefined) defaults.domain = domain;
  if (origin !== undefined) defaults.origin = origin;
  return { entries, batch: true, defaults };
}

/** The `/ingest/memory` reply for a batch: each entry's result, then counts by status. */
export interface MemoryBatchResult {
  results: EntryResult[];
  created: number;
  duplicate: number;
  skipped: number;
  rejected: number;
  proposed: number;
}

/** `POST /ingest/memory`: strip + skip per entry. A single entry replies with its result; a batch with `{results, counts}`. */
export async function ingestMemory(ctx: WriteContext, raw: MemoryDoorInput, skipPatterns: readonly string[]): Promise<EntryResult | MemoryBatchResult> {
  const body = requireObject(raw);
  const { entries, batch, defaults } = readEntries(body);
  const results: EntryResult[] = [];
  for (const [i, item] of entries.entries()) {
    try {
      // The text-field rule per entry (the HTTP door leaves a batch's entries to this check, so one bad entry is
      // rejected naming its field and the others are written).
      requireCleanText(item, { at: batch ? `entries[${i}]` : "" });
      const e = parseEntry(item, batch ? defaults : {});
      const cleaned = cleanMemoryEntry(e.content, skipPatterns);
      if (!cleaned.kept) {
        results.push({ status: "skipped", reason: cleaned.reason });
        continue;
      }
      results.push(await writeEntry(ctx, e, cleaned.text, "ingest_memory"));
    } catch (err) {
      if (!batch) throw err;
      results.push(failure(err));
    }
  }
  if (!batch) return results[0];
  const counts = { created: 0, duplicate: 0, skipped: 0, rejected: 0, proposed: 0 };
  for (const r of results) counts[r.status]++;
  return { results, ...counts };
}

/** `POST /add` (deprecated, SPEC §9.5): reasoning strip only, one entry. */
export async function ingestAdd(ctx: WriteContext, raw: MemoryEntryInput): Promise<EntryResult> {
  const e = parseEntry(requireObject(raw), {});
  const text = stripReasoning(e.content);
  if (text.trim() === "") return { status: "skipped", reason: "empty" };
  return await writeEntry(ctx, e, text, "add");
}
