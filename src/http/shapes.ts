/**
 * Response shapes shared by several route files, and helpers for route
 * declarations. Request bodies are the domain's schemas (src/core/schema.ts).
 * Responses are closed objects (no catch-all index signature, so a typed client
 * catches a misspelt field); JSON Schema still lets a reply carry fields added
 * later without breaking a generated client.
 */
import { UmpRecordInput } from "../ump/ump-schema.ts";
import { z } from "./api-router.ts";

/** A JSON response entry for `createRoute({ responses })`. */
export function json<T extends z.ZodType>(schema: T, description: string): { description: string; content: { "application/json": { schema: T } } } {
  return { description, content: { "application/json": { schema } } };
}

/** A required JSON request body for `createRoute({ request })`. */
export function jsonBody<T extends z.ZodType>(schema: T, description?: string): { required: true; description?: string; content: { "application/json": { schema: T } } } {
  return { required: true, ...(description ? { description } : {}), content: { "application/json": { schema } } };
}

/**
 * An optional JSON body documented but left to the handler (an empty body is `{}`, SPEC-era behaviour kept): a plain
 * OpenAPI schema, not zod, so no validator is installed (see `openapi()` in @hono/zod-openapi).
 */
export function optionalBody(schema: Record<string, unknown>, description?: string): { required: false; description?: string; content: { "application/json": { schema: Record<string, unknown> } } } {
  return { required: false, ...(description ? { description } : {}), content: { "application/json": { schema } } };
}

/** A query parameter the handler (or the domain) validates: a string on the wire. */
export function q(description?: string, extra: Record<string, unknown> = {}): z.ZodOptional<z.ZodString> {
  return z.string().optional().openapi({ ...(description ? { description } : {}), ...extra });
}

/** A path parameter. */
export function pathParam(name: string, extra: Record<string, unknown> = {}): z.ZodString {
  return z.string().openapi({ param: { name, in: "path" }, ...extra });
}

/** Any JSON object; the domain names its fields. */
export const AnyObject = z.record(z.string(), z.unknown());

export const ErrorBody = z
  .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() })
  .openapi("ErrorBody");

const choice = { "x-cairn-choice": true };

/** A UMP record (src/ump/ump-schema.ts: partial on write, complete when emitted). */
export const UmpRecord = UmpRecordInput;

export const UmpRememberResult = z
  .object({
    id: z.string().optional(),
    result: z.enum(["created", "merged", "rejected"]),
    flagged: z.boolean().optional().openapi({ description: "The screen quarantined the text: stored, excluded from recall until released", ...choice }),
    error: ErrorBody.optional().openapi({ description: "Set with result rejected: the injection screen refused the text (content_rejected)", ...choice }),
    review: z.object({ status: z.literal("pending"), proposal_id: z.number().int() }).optional()
      .openapi({ description: "Under review posture the record became a pending proposal, not memory", ...choice }),
  })
  .openapi("UmpRememberResult");

export const UmpCapabilities = z
  .object({
    server: z.object({ name: z.string(), version: z.string() }),
    ump: z.string(),
    conformance: z.enum(["L2", "L3"]).openapi({ description: "L3 when an operator key is configured" }),
    kinds: z.array(z.string()),
    bindings: z.array(z.string()),
    retrieval_signals: z.array(z.string()),
    max_recall: z.number().int(),
    writable: z.boolean(),
    audit: z.boolean(),
  })
  .openapi("UmpCapabilities");

export const AuditRow = z
  .object({
    id: z.number().int(), ts: z.string(), action: z.string(), actor: z.string().optional(), target: z.string().optional(),
    detail: z.unknown(), prev_hash: z.string(), hash: z.string(),
  })
  .openapi("AuditRow");

export const AuditPage = z.object({ rows: z.array(AuditRow), next_after: z.number().int().optional() }).openapi("AuditPage");

export const AuditVerify = z
  .object({
    ok: z.boolean(), rows: z.number().int(), head: z.string().optional(),
    first_broken: z.object({ id: z.number().int(), reason: z.string() }).optional(),
  })
  .openapi("AuditVerify");

export const Link = z
  .object({
    id: z.number().int(), kind: z.string(), from: z.number().int(), to: z.number().int(),
    status: z.string().openapi({ enum: ["proposed", "approved", "undone", "dismissed"] }),
    basis: z.record(z.string(), z.unknown()), created_at: z.string(), approved_at: z.string().optional(), closed_at: z.string().optional(),
  })
  .openapi("Link");

export const ProposalView = z
  .object({
    id: z.number().int(), status: z.string(), kind: z.string(), door: z.string(), domain: z.string(), title: z.string().optional(),
    content: z.string(), content_digest: z.string(), score: z.number(), score_breakdown: AnyObject, screen: AnyObject,
    source_prompt: z.string().optional(), source: z.string().optional(), origin: z.string().optional(), owner: z.string().optional(),
    raw_evidence: z.object({ bytes: z.number().int(), sha256: z.string(), removed_by_read_seam: z.number().int(), escaped: z.string() }),
    created_at: z.string(), decided_at: z.string().optional(), promoted_chunk_id: z.number().int().nullable(),
    supersedes: z.number().int().optional(), pii_redacted: z.literal(true).optional(), untrusted: z.literal(true),
  })
  .openapi("ProposalView");

const NodeRef = z.object({ id: z.number().int(), name: z.string() }).openapi("NodeRef");
export const Edge = z
  .object({
    id: z.number().int(), from: NodeRef, relation: z.string(), to: NodeRef, created_at: z.string(),
    valid_at: z.string().optional(), invalid_at: z.string().optional(), superseded_at: z.string().optional(),
    edge_source: z.string(), chunk_id: z.number().int().optional(),
  })
  .openapi("Edge");
export { NodeRef };

/** A request body documented by plain OpenAPI schemas, left to the handler (several media types or non-JSON forms). */
export function docBody(content: Record<string, Record<string, unknown>>, required = true, description?: string): { required: boolean; description?: string; content: Record<string, { schema: Record<string, unknown> }> } {
  return { required, ...(description ? { description } : {}), content: Object.fromEntries(Object.entries(content).map(([m, schema]) => [m, { schema }])) };
}

/** A reference to a registered component schema. */
export function ref(name: string): Record<string, unknown> {
  return { $ref: `#/components/schemas/${name}` };
}

export const UmpBatch = z
  .object({ ump: z.string().optional(), records: z.array(UmpRecord) })
  .openapi("UmpBatch");

export const UmpBatchResult = z
  .object({
    ump: z.string(),
    results: z.array(z.object({ index: z.number().int(), id: z.string().optional(), result: z.enum(["created", "merged", "rejected"]), error: ErrorBody.optional() })),
    created: z.number().int(), merged: z.number().int(), rejected: z.number().int(),
  })
  .openapi("UmpBatchResult", { description: "Batch reply of POST /ingest?format=ump|ump-md (shape not shown by the spec)", "x-cairn-choice": true });

/** SPEC §7: the 429 body is exactly `{error: rate_limited, code: rate_limited}` with Retry-After; the per-client budget applies to every route, public ones too. */
export const RATE_LIMITED = {
  429: json(z.object({ error: z.literal("rate_limited"), code: z.literal("rate_limited") }).openapi("RateLimited"), "Per-client request budget exceeded (Retry-After header)"),
};
