/**
 * The recall request (SPEC §4.1 `QueryDoc`) and reply (§2.2–§2.4, §4.1) as schemas that validate and type. The
 * route, the OpenAPI document, the typed client and the library (`memory.recall`) use them; `validateQueryDoc`
 * parses with `RecallBody`, so HTTP, UMP, MCP and the CLI answer the same codes (`query_empty`, `query_too_long`,
 * `limit_out_of_range`, `domain_invalid`, `source_invalid` with 422). What needs configuration stays in the domain:
 * the injection screen (`query_rejected`) and the `?source=` parameter that overrides the body's `source`.
 */
import { z } from "zod";
import { body, byteLength, isAbsent, optionalText, specError, specErrorBy } from "../core/schema.ts";
import { INGEST_KINDS } from "../core/types.ts";
import { domainNameField } from "../domains/domain-name.ts";

/** Retrieval legs a `source` may name (SPEC §4.1). */
export const LEGS = ["vector", "fts", "graph", "both"] as const;
/** One leg. */
export type Leg = (typeof LEGS)[number];

/** RFC 3339 or `YYYY-MM-DD HH:MM:SS` (SPEC §4.1 `since`); undefined when malformed. */
export function parseSince(s: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s.trim());
  if (!m) return undefined;
  const iso = m[4] === undefined ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7] ?? ""}${m[8] ?? "Z"}`;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms;
}

const queryBounds = { min: 1, max: 2000 };
const queryEmpty = specError("query_empty", "query must not be empty", queryBounds);
const limitRange = specError("limit_out_of_range", "limit must be an integer from 1 to 100", { min: 1, max: 100 });
const choice = { "x-cairn-choice": true };
const flag = (field: string, dflt: boolean, meta: Record<string, unknown> = {}) =>
  z.boolean({ error: specError("invalid_request", `${field} must be a boolean`, { field }) }).default(dflt).meta(meta);
const SOURCES = [...INGEST_KINDS, ...LEGS] as const;
const unknownSource = (field: string, allowed: readonly string[]) =>
  specErrorBy((iss) =>
    typeof iss.input !== "string"
      ? specError("invalid_request", field === "source" ? "source must be a string" : "sources must be an array of strings", { field })
      : byteLength(iss.input) > 64 && field === "source"
      ? specError("invalid_request", "source must be at most 64 bytes", { field, max: 64 })
      : specError("source_invalid", `unknown source '${iss.input.slice(0, 64)}'`, { field, allowed: [...allowed] }, 422)
  );

/** A recall query: 1 to 2,000 bytes (SPEC §4.1, §8; `query_empty`, `query_too_long`). UMP recall takes the same. */
export const QueryText = z
  .string({ error: specErrorBy((iss) => (isAbsent(iss) ? queryEmpty : specError("invalid_request", "query must be a string", { field: "query" }))) })
  .refine((q) => q.trim() !== "", { error: queryEmpty, abort: true })
  .refine((q) => q.length <= 2000 && byteLength(q) <= 2000, { error: specError("query_too_long", "query exceeds 2,000 bytes", queryBounds) })
  .meta({ description: "1 to 2,000 bytes (query_empty, query_too_long); a blocked prompt-injection pattern is query_rejected", example: "when do deploys happen" });

/** `POST /recall` (SPEC §4.1), fields in the order the pipeline checks them. */
export const RecallBody = body({
  query: QueryText,
  limit: z.number({ error: limitRange }).int({ error: limitRange }).min(1, { error: limitRange }).max(100, { error: limitRange }).default(5)
    .meta({ description: "limit_out_of_range outside 1 to 100" }),
  strict: flag("strict", false, { description: "true disables the cross-domain fallback" }),
  provenance: flag("provenance", false, { description: "adds per-hit domain, source and provenance, and the telemetry object" }),
  trace: flag("trace", false, { description: "records the decision path as an audit row; its id is returned as trace_id" }),
  graph: flag("graph", true, { description: "false disables the graph leg for this request" }),
  include_decayed: flag("include_decayed", false, { description: "opt into decayed entries (expires_at past), served with decayed: true", ...choice }),
  abstain: flag("abstain", true, { description: "false turns calibrated abstention off for this request", ...choice }),
  domain: domainNameField("domain").optional().meta({ description: "Forces a domain and disables auto-routing (domain_invalid)" }),
  source: z.enum(SOURCES, { error: unknownSource("source", SOURCES) }).optional()
    .meta({ description: "An ingest kind filters in storage, a leg after fusion, both is unrestricted; unknown → 422 source_invalid. The ?source= query parameter takes precedence." }),
  sources: z.array(z.enum(INGEST_KINDS, { error: unknownSource("sources", INGEST_KINDS) }), { error: unknownSource("sources", INGEST_KINDS) }).optional()
    .meta({ description: "OR filter over ingest kind" }),
  since: optionalText("since", 64, { description: "RFC 3339 or YYYY-MM-DD HH:MM:SS; malformed → no hits, never 400" }),
  lex: optionalText("lex", 2000, { description: "Lexical query override: terms, \"phrases\", -exclusions" }),
  vec: optionalText("vec", 2000, { description: "Semantic embedding-query override" }),
  hyde: optionalText("hyde", 2000, { description: "Hypothetical-answer embedding override; beats vec" }),
  intent: optionalText("intent", 200, { description: "Free-form label recorded for provenance" }),
  at: z
    .string({ error: specError("invalid_request", "at must be a string", { field: "at" }) })
    .refine((v) => byteLength(v) <= 64 && parseSince(v) !== undefined, { error: specError("invalid_request", "at must be an ISO-8601 timestamp", { field: "at" }) })
    .optional()
    .meta({ format: "date-time", description: "historical recall: the store as of this time (body field, this project's placement)", ...choice }),
}, { error: queryEmpty }); // A body that is not an object has no query (SPEC §7 query_empty), on every binding.

/** What `POST /recall` takes (and `memory.recall`, `cairn.recall`). */
export type RecallInput = z.input<typeof RecallBody>;

// SPEC §2.3; the objects the pipeline reports whole stay open records.
const Provenance = z.object({
  vector_rank: z.number().int().optional(),
  fts_rank: z.number().int().optional(),
  graph_rank: z.number().int().optional(),
  prf_rank: z.number().int().optional().meta({ description: "Rank in the PRF-expanded lexical pass, when it found the hit" }),
  fused_score: z.number(),
  rerank_score: z.number().optional(),
  rerank_truncated: z.literal(true).optional(),
  prf_expanded: z.boolean(),
  top_retrieval_mode: z.enum(["vector", "fts", "both"]).optional(),
  retrieval_strategy: z.string(),
  quality_assessment: z.record(z.string(), z.unknown()),
  prf_decision: z.record(z.string(), z.unknown()),
  graph_hops: z.array(z.unknown()).optional(),
}).meta({ id: "HitProvenance" });

/** A served hit (SPEC §2.2); optional fields are omitted, never null. */
export const RecallHitSchema = z.object({
  id: z.number().int(),
  title: z.string().optional(),
  content: z.string(),
  score: z.number(),
  untrusted: z.literal(true),
  flagged: z.boolean(),
  snippet: z.string().optional(),
  evidence: z.record(z.string(), z.unknown()).optional().meta({ description: "Verbatim snippet window, line span, source link and highlight ranges" }),
  relevance: z.enum(["high", "medium", "low"]).optional(),
  confidence: z.number().optional(),
  assertion_kind: z.enum(["stated", "observed", "inferred"]).optional(),
  conflict: z.literal(true).optional(),
  decayed: z.literal(true).optional(),
  ingest_kind: z.enum(INGEST_KINDS).optional(),
  memory_kind: z.string().optional(),
  lawful_basis: z.string().optional(),
  region: z.string().optional(),
  origin: z.string().optional(),
  authority: z.number().optional(),
  domain: z.string().optional().meta({ description: "with provenance=true" }),
  source: z.enum(["vector", "fts", "both", "graph"]).optional().meta({
    description: "with provenance=true: both (vector and a lexical pass), else the first-pass leg that found it; graph when only the graph leg (and perhaps the PRF-expanded pass) found it; fts for the expanded pass alone",
  }),
  provenance: Provenance.optional().meta({ description: "with provenance=true" }),
}).meta({ id: "RecallHit" });

/** A served hit. */
export type RecallHit = z.infer<typeof RecallHitSchema>;

/** The recall reply (SPEC §4.1). */
export const RecallReplySchema = z.object({
  hits: z.array(RecallHitSchema),
  domain: z.string(),
  domainsSearched: z.array(z.string()),
  included_global: z.boolean(),
  telemetry: z.record(z.string(), z.union([z.number(), z.string()])).optional().meta({ description: "with provenance=true (SPEC §2.4)" }),
  trace_id: z.number().int().optional(),
  decision: z.literal("low_confidence").optional().meta({ description: "Abstention: no confident answer, hits empty" }),
}).meta({ id: "RecallReply" });

/** The recall reply. */
export type RecallReply = z.infer<typeof RecallReplySchema>;
