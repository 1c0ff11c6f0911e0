/**
 * `QueryDoc` validation (SPEC §4.1, §7, §8). Produces the normalised request
 * or throws MemoryError with the spec's code. A malformed `since` is not an
 * error: it is carried as `sinceInvalid` so that target contributes no hits.
 */
import { MemoryError } from "../core/errors.ts";
import { INGEST_KINDS, type IngestKind } from "../core/types.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import { queryAction, type InjectionPolicy } from "../hygiene/injection-policy.ts";
import { screen } from "../hygiene/screen.ts";
import { optionalBool, optionalString, requireObject } from "../ingest/fields.ts";

/** Retrieval legs a `source` may name (SPEC §4.1). */
export const LEGS = ["vector", "fts", "graph", "both"] as const;
/** One leg. */
export type Leg = (typeof LEGS)[number];

/** A validated recall request. */
export interface RecallQuery {
  query: string;
  limit: number;
  domain?: string;
  strict: boolean;
  provenance: boolean;
  /** Ingest-kind filter in storage (from `source` or `sources`). */
  kinds?: IngestKind[];
  /** Leg filter after fusion. */
  leg?: Exclude<Leg, "both">;
  sinceMs?: number;
  sinceInvalid?: boolean;
  lex?: string;
  vec?: string;
  hyde?: string;
  intent?: string;
  trace: boolean;
  graph: boolean;
  atMs?: number;
  at?: string;
  includeDecayed: boolean;
  /** Calibrated abstention applies (this project's per-request switch, `abstain: false`; issue 24). */
  abstain: boolean;
}

const enc = new TextEncoder();

/** RFC 3339 or `YYYY-MM-DD HH:MM:SS` (SPEC §4.1 `since`); undefined when malformed. */
export function parseSince(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s.trim());
  if (!m) return undefined;
  const iso = m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ""}${m[8] ?? "Z"}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

function isKind(v: string): v is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(v);
}

/** Validates a QueryDoc; `sourceParam` is the `?source=` query parameter (SPEC §4.1). */
export function validateQueryDoc(raw: unknown, sourceParam?: string, policy: InjectionPolicy = "quarantine"): RecallQuery {
  const b = requireObject(raw);
  const q = b.query;
  if (q === undefined || q === null || (typeof q === "string" && q.trim() === "")) throw new MemoryError("query_empty", "query must not be empty", { min: 1, max: 2000 });
  if (typeof q !== "string") throw new MemoryError("invalid_request", "query must be a string", { field: "query" });
  if (enc.encode(q).length > 2000) throw new MemoryError("query_too_long", "query exceeds 2,000 bytes", { min: 1, max: 2000 });
  const screened = screen(q);
  if (queryAction(screened.verdict, policy, screened.reasons) === "reject") throw new MemoryError("query_rejected", "query matches a blocked prompt-injection pattern");
  let limit = 5;
  if (b.limit !== undefined && b.limit !== null) {
    if (typeof b.limit !== "number" || !Number.isInteger(b.limit) || b.limit < 1 || b.limit > 100) {
      throw new MemoryError("limit_out_of_range", "limit must be an integer from 1 to 100", { min: 1, max: 100 });
    }
    limit = b.limit;
  }
  const out: RecallQuery = {
    query: q, limit, strict: optionalBool(b, "strict") ?? false, provenance: optionalBool(b, "provenance") ?? false,
    trace: optionalBool(b, "trace") ?? false, graph: optionalBool(b, "graph") ?? true,
    includeDecayed: optionalBool(b, "include_decayed") ?? false,
    abstain: optionalBool(b, "abstain") ?? true,
  };
  if (b.domain !== undefined && b.domain !== null) out.domain = normalizeDomainName(b.domain);
  const source = sourceParam ?? optionalString(b, "source", 64);
  if (source !== undefined) {
    if (isKind(source)) out.kinds = [source];
    else if ((LEGS as readonly string[]).includes(source)) {
      if (source !== "both") out.leg = source as Exclude<Leg, "both">;
    } else throw new MemoryError("source_invalid", `unknown source '${source}'`, { field: "source", allowed: [...INGEST_KINDS, ...LEGS] }, 422);
  }
  if (b.sources !== undefined && b.sources !== null) {
    if (!Array.isArray(b.sources) || b.sources.some((s) => typeof s !== "string")) {
      throw new MemoryError("invalid_request", "sources must be an array of strings", { field: "sources" });
    }
    const bad = (b.sources as string[]).find((s) => !isKind(s));
    if (bad !== undefined) throw new MemoryError("source_invalid", `unknown source '${bad}'`, { field: "sources", allowed: [...INGEST_KINDS] }, 422);
    const kinds = new Set<IngestKind>([...(out.kinds ?? []), ...(b.sources as IngestKind[])]);
    if (kinds.size) out.kinds = [...kinds].sort();
  }
  const since = optionalString(b, "since", 64);
  if (since !== undefined) {
    const ms = parseSince(since);
    if (ms === undefined) out.sinceInvalid = true;
    else out.sinceMs = ms;
  }
  for (const f of ["lex", "vec", "hyde"] as const) {
    const v = optionalString(b, f, 2000);
    if (v !== undefined && v.trim() !== "") out[f] = v;
  }
  const intent = optionalString(b, "intent", 200);
  if (intent !== undefined) out.intent = intent;
  const at = optionalString(b, "at", 64);
  if (at !== undefined) {
    const ms = parseSince(at);
    if (ms === undefined) throw new MemoryError("invalid_request", "at must be an ISO-8601 timestamp", { field: "at" });
    out.atMs = ms;
    out.at = new Date(ms).toISOString();
  }
  return out;
}
