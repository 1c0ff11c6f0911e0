/**
 * Raw memory doors (SPEC §1 Input hygiene, §4.2): `POST /ingest/memory`
 * runs the reasoning-tag strip plus the skip rule per entry; deprecated
 * `POST /add` runs the strip only. Entries are stored with `source`
 * `memory`. Each entry is its own write: one bad entry never aborts the rest.
 */
import { MemoryError, isMemoryError } from "../core/errors.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import { requireCleanText } from "../core/text-rule.ts";
import type { NewChunk, Origin } from "../core/types.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "../domains/domain-name.ts";
import { cleanMemoryEntry } from "../hygiene/clean-memory-entry.ts";
import { stripReasoning } from "../hygiene/strip-reasoning.ts";
import { confidenceFor } from "./confidence.ts";
import type { WriteContext } from "./context.ts";
import { requireObject } from "./fields.ts";
import { requireRegisteredDomain } from "./ingest-structured.ts";
import { refuseNul, validateContent, validateTitle } from "./validate-ingest.ts";
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

const ORIGINS: readonly Origin[] = ["human", "model", "agent", "operator"];

interface Entry {
  content: string;
  title?: string;
  domain?: string;
  origin?: Origin;
}

function parseEntry(raw: unknown, defaults: { domain?: string; origin?: Origin }): Entry {
  // Refused before any entry is written, so a batch is never half-stored (NUL: see refuseNul).
  if (typeof raw === "string") { refuseNul(raw, "content"); return { content: raw, ...defaults }; }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new MemoryError("invalid_request", "an entry must be a string or an object with content", { field: "entries" });
  }
  const o = requireObject(raw);
  if (typeof o.content !== "string") validateContent(o.content);
  refuseNul(o.content as string, "content");
  const e: Entry = { content: o.content as string };
  if (o.title !== undefined) e.title = validateTitle(o.title);
  const d = o.domain ?? defaults.domain;
  if (d !== undefined) e.domain = normalizeDomainName(d);
  const origin = o.origin !== undefined ? validOrigin(o.origin) : defaults.origin;
  if (origin !== undefined) e.origin = origin;
  return e;
}

function validOrigin(v: unknown): Origin {
  if (typeof v !== "string" || !(ORIGINS as readonly string[]).includes(v)) {
    throw new MemoryError("invalid_request", "origin must be human, model, agent or operator", { field: "origin" });
  }
  return v as Origin;
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

/** Reads `{content, …}` (one entry) or `{entries: [...]}` (many) from a body. */
function readEntries(body: Record<string, unknown>): { entries: unknown[]; batch: boolean } {
  if (body.entries !== undefined) {
    if (!Array.isArray(body.entries)) throw new MemoryError("invalid_request", "entries must be an array", { field: "entries" });
    if (body.entries.length === 0 || body.entries.length > 1000) {
      throw new MemoryError("invalid_request", "entries must hold 1 to 1000 items", { field: "entries", min: 1, max: 1000 });
    }
    return { entries: body.entries, batch: true };
  }
  return { entries: [body], batch: false };
}

/** `POST /ingest/memory`: strip + skip per entry. A single entry replies with its result; a batch with `{results, counts}`. */
export async function ingestMemory(ctx: WriteContext, raw: unknown, skipPatterns: readonly string[]) {
  const body = requireObject(raw);
  const { entries, batch } = readEntries(body);
  // Body-level defaults apply to string entries as they are, so they are validated once here (issue 23 §2).
  const defaults: { domain?: string; origin?: Origin } = {};
  if (batch && body.domain !== undefined) defaults.domain = normalizeDomainName(body.domain);
  if (batch && body.origin !== undefined) defaults.origin = validOrigin(body.origin);
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
export async function ingestAdd(ctx: WriteContext, raw: unknown): Promise<EntryResult> {
  const e = parseEntry(requireObject(raw), {});
  const text = stripReasoning(e.content);
  if (text.trim() === "") return { status: "skipped", reason: "empty" };
  return await writeEntry(ctx, e, text, "add");
}
