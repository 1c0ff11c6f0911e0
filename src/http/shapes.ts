/**
 * Request and response shapes shared by several route files (issue 21: schemas
 * as code). Request shapes only document fields the domain validators check
 * (SPEC §7 codes come from there, shared with MCP and the CLI): such a field is
 * `.optional()` and the object is loose (unknown keys reach the validator), so
 * zod never answers before the domain. Response shapes are loose too: a reply
 * may carry fields added later without breaking a generated client.
 */
import { specError, z } from "./api-router.ts";

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

export const Entity = z
  .looseObject({
    name: z.string().optional().openapi({ minLength: 1, maxLength: 100, pattern: "^[A-Za-z0-9 _-]+$", description: "Required (name_invalid)" }),
    type: z.string().optional().openapi({ maxLength: 64 }),
  })
  .openapi("Entity");

export const Relation = z
  .looseObject({
    from: z.string().optional().openapi({ description: "Required" }),
    to: z.string().optional().openapi({ description: "Required" }),
    type: z.string().optional().openapi({ pattern: "^([a-z]+:)?[a-z0-9_]+$", description: "Required (relation_invalid)" }),
    valid_at: z.string().optional().openapi({ format: "date-time" }),
    invalid_at: z.string().optional().openapi({ format: "date-time" }),
  })
  .openapi("Relation");

const choice = { "x-cairn-choice": true };
export const IngestRequest = z
  .looseObject({
    title: z.unknown().optional().openapi({ type: "string", description: "Required; 1 to 500 bytes after trimming (title_invalid)" }),
    content: z.unknown().optional().openapi({ type: "string", description: "Required; 1 to 1,000,000 bytes, not trimmed (content_empty, content_too_large)" }),
    domain: z.unknown().optional().openapi({ type: "string", description: "Forced domain; omitted resolves to global (domain_invalid)" }),
    entities: z.unknown().optional().openapi({ type: "array", maxItems: 200, items: { $ref: "#/components/schemas/Entity" } }),
    relations: z.unknown().optional().openapi({ type: "array", maxItems: 200, items: { $ref: "#/components/schemas/Relation" } }),
    origin_context: z.unknown().optional().openapi({ type: "string", enum: ["owner", "channel"] }),
    source: z.unknown().optional().openapi({ type: "string", maxLength: 64, description: "Provenance source string (MAX_SOURCE); connector or web markers apply the 0.9 unverified-source discount", ...choice }),
    memory_kind: z.unknown().optional().openapi({ type: "string", maxLength: 64, ...choice }),
    lawful_basis: z.unknown().optional().openapi({ type: "string", maxLength: 64, ...choice }),
    region: z.unknown().optional().openapi({ type: "string", maxLength: 64, ...choice }),
    assertion_kind: z.unknown().optional().openapi({ type: "string", enum: ["stated", "observed", "inferred"], ...choice }),
    expires_at: z.unknown().optional().openapi({ type: "string", format: "date-time", ...choice }),
    authority: z.unknown().optional().openapi({ type: "number", minimum: 0, maximum: 1, ...choice }),
  })
  .openapi("IngestRequest");

export const IngestResult = z
  .object({
    id: z.number().int(),
    status: z.enum(["created", "duplicate"]),
    domain: z.string(),
    entitiesAdded: z.number().int(),
    relationsAdded: z.number().int(),
    flagged: z.literal(true).optional().openapi({ description: "Present when the injection screen quarantined the entry (stored flagged, excluded from recall until released)", ...choice }),
  })
  .openapi("IngestResult");

export const UmpRecord = z
  .looseObject({
    ump: z.unknown().optional().openapi({ type: "string", example: "1.0" }),
    id: z.unknown().optional().openapi({ type: "string", pattern: "^urn:ump:[a-z2-7]+$" }),
    kind: z.unknown().optional().openapi({ type: "string", enum: ["semantic", "episodic", "procedural", "working", "identity"], description: "Required (invalid_record)" }),
    title: z.unknown().optional().openapi({ type: "string" }),
    body: z.unknown().optional().openapi({ type: "object", required: ["text"], properties: { text: { type: "string" }, structured: {} }, description: "Required (invalid_record)" }),
    scope: z.unknown().optional().openapi({
      type: "object",
      properties: {
        owner: { type: "string", description: "A DID; when given it must equal the authenticated principal (403 forbidden_scope)" },
        user: { type: "string" }, project: { type: "string" }, agent: { type: "string" }, session: { type: "string" },
        visibility: { type: "string", enum: ["private", "shared", "public"] },
      },
    }),
    time: z.unknown().optional().openapi({ type: "object", properties: { created: { type: "string" }, observed: { type: "string" }, valid_from: { type: "string" }, valid_to: { type: ["string", "null"] } } }),
    lifecycle: z.unknown().optional().openapi({ type: "object", properties: { confidence: { type: "number" }, salience: { type: "number" }, decay: { type: "string" }, status: { type: "string", enum: ["active", "candidate", "tombstoned"] } } }),
    supersedes: z.unknown().optional().openapi({ type: "array", items: { type: "string" } }),
    superseded_by: z.unknown().optional().openapi({ type: "array", items: { type: "string" } }),
    relations: z.unknown().optional().openapi({ type: "array", items: { type: "object", properties: { type: { type: "string" }, target: { type: "string" } } } }),
    provenance: z.unknown().optional().openapi({ type: "object" }),
    consent: z.unknown().optional().openapi({
      type: "object",
      properties: {
        retention: { type: "string", description: "ISO 8601 duration from time.created; on expiry the record is tombstoned" },
        exportable: { type: "boolean" },
        redact: { type: "array", items: { type: "string" }, description: "JSON paths stripped on export and across a visibility boundary" },
      },
    }),
    integrity: z.unknown().optional().openapi({
      type: "object",
      properties: {
        content_hash: { type: "string", pattern: "^blake3:[a-z2-7]+$" },
        signature: { type: "string", description: "ed25519:<base64>; present when an operator key is configured" },
        signer: { type: "string", description: "did:key:z6Mk…" },
      },
    }),
  }, { error: specError("invalid_record", "record: must be a JSON object") })
  .openapi("UmpRecord", { description: "A UMP 1.0 record (SPEC §2.8). Partial on write; complete when emitted." });

export const UmpRememberResult = z
  .looseObject({
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
  .looseObject({
    id: z.number().int(), ts: z.string(), action: z.string(), actor: z.string().optional(), target: z.string().optional(),
    detail: z.unknown(), prev_hash: z.string(), hash: z.string(),
  })
  .openapi("AuditRow");

export const AuditPage = z.object({ rows: z.array(AuditRow), next_after: z.number().int().optional() }).openapi("AuditPage");

export const AuditVerify = z
  .looseObject({
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
  .looseObject({ ump: z.string().optional(), records: z.array(UmpRecord) })
  .openapi("UmpBatch");

export const UmpBatchResult = z
  .object({
    ump: z.string(),
    results: z.array(z.looseObject({ index: z.number().int(), id: z.string().optional(), result: z.enum(["created", "merged", "rejected"]), error: ErrorBody.optional() })),
    created: z.number().int(), merged: z.number().int(), rejected: z.number().int(),
  })
  .openapi("UmpBatchResult", { description: "Batch reply of POST /ingest?format=ump|ump-md (shape not shown by the spec)", "x-cairn-choice": true });

/** SPEC §7: the 429 body is exactly `{error: rate_limited, code: rate_limited}` with Retry-After; the per-client budget applies to every route, public ones too. */
export const RATE_LIMITED = {
  429: json(z.object({ error: z.literal("rate_limited"), code: z.literal("rate_limited") }).openapi("RateLimited"), "Per-client request budget exceeded (Retry-After header)"),
};
