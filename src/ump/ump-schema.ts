/**
 * Request bodies of the UMP operations (SPEC §2.8, §4.9) as schemas that validate and type: `/ump/recall`,
 * `/ump/revise`, `/ump/forget`, `/ump/feedback`, `/ump/audit` — the same operations MCP serves as tools. Problems are
 * 400 `invalid_record` (the UMP vocabulary), except the recall query and limit, which answer as recall does
 * (`query_empty`, `limit_out_of_range`). `UmpRecordInput` types and documents a partial record for `/ump/remember`;
 * that record is validated and completed by `normaliseRecord` (record.ts), which reports every problem at once.
 */
import { z } from "zod";
import { body, byteLength, specError } from "../core/schema.ts";
import { QueryText } from "../recall/recall-schema.ts";
import { FEEDBACK_OUTCOMES } from "../store/ump-records.ts";
import { MAX_RECALL } from "./capabilities.ts";
import { KINDS } from "./record.ts";
import type { UmpKind } from "./types.ts";

const notObject = (what: string) => specError("invalid_record", `${what} must be a JSON object`);
const choice = { "x-cairn-choice": true };

// UMP notes: an unknown major version is refused; "0.1" and "1.x" are read as 1.0.
const UmpVersion = z
  .string({ error: (iss) => specError("invalid_record", `ump: unsupported version ${JSON.stringify(iss.input)}, expected "1.0"`, { field: "ump" })(iss) })
  .refine((v) => v === "0.1" || /^1\.\d+$/.test(v), { error: (iss) => specError("invalid_record", `ump: unsupported version ${JSON.stringify(iss.input)}, expected "1.0"`, { field: "ump" })(iss) })
  .optional().meta({ example: "1.0" });

const RECORD_ID = /^urn:ump:[a-z2-7]{1,128}$/;
/** A record id, `urn:ump:<lowercase base32>`. */
export const RecordId = z
  .string({ error: specError("invalid_record", "id must be urn:ump:<lowercase base32>", { field: "id" }) })
  .regex(RECORD_ID, { error: specError("invalid_record", "id must be urn:ump:<lowercase base32>", { field: "id" }) });

const sized = (field: string, max: number) =>
  z.string({ error: specError("invalid_record", `${field} must be a string of at most ${max} bytes`, { field }) })
    .refine((v) => byteLength(v) <= max, { error: specError("invalid_record", `${field} must be a string of at most ${max} bytes`, { field }) })
    .optional();

const limitRange = specError("limit_out_of_range", `limit must be an integer from 1 to ${MAX_RECALL}`, { min: 1, max: MAX_RECALL });
const scopeKey = (k: string) => z.string({ error: specError("invalid_record", `scope.${k} must be a string`, { field: `scope.${k}` }) }).optional();
const kindError = specError("invalid_record", `filter.kind must be one of ${KINDS.join(", ")}`, { field: "filter.kind" });
const Kind = z.enum(KINDS as [UmpKind, ...UmpKind[]], { error: kindError });

/** `POST /ump/recall`. */
export const UmpRecallBody = body({
  ump: UmpVersion,
  limit: z.number({ error: limitRange }).int({ error: limitRange }).min(1, { error: limitRange }).max(MAX_RECALL, { error: limitRange }).optional()
    .meta({ description: `1 to ${MAX_RECALL}, default 5 (limit_out_of_range)` }),
  scope: z.object({
    owner: scopeKey("owner"), user: scopeKey("user"), project: scopeKey("project"), agent: scopeKey("agent"), session: scopeKey("session"),
    visibility: scopeKey("visibility").meta({ description: "private, shared or public" }),
  }, { error: notObject("scope") }).optional().meta({ description: "Only records whose scope has these values" }),
  filter: z.object({
    kind: z.union([Kind, z.array(Kind).min(1, { error: kindError })], { error: kindError }).optional(),
    valid_at: z.string({ error: specError("invalid_record", "filter.valid_at must be an ISO 8601 timestamp", { field: "filter.valid_at" }) })
      .refine((v) => Number.isFinite(Date.parse(v)), { error: specError("invalid_record", "filter.valid_at must be an ISO 8601 timestamp", { field: "filter.valid_at" }) })
      .optional().meta({ format: "date-time", description: "The version valid then (recall's at)" }),
  }, { error: notObject("filter") }).optional(),
  query: QueryText,
}, { error: notObject("request body"), nulls: ["limit", "scope", "filter", "query"], meta: { id: "UmpRecallRequest" } });

/** What `POST /ump/recall` takes. */
export type UmpRecallInput = z.input<typeof UmpRecallBody>;

/** `POST /ump/revise`: a JSON Merge Patch (RFC 7386) of the record. */
export const UmpReviseBody = body({
  ump: UmpVersion,
  id: RecordId,
  patch: z.record(z.string(), z.unknown(), { error: notObject("patch") })
    .meta({ description: "A JSON Merge Patch (RFC 7386); id, integrity, supersedes, superseded_by and ump cannot be set" }),
}, { error: notObject("request body"), nulls: ["id", "patch"], meta: { id: "UmpReviseRequest" } });

/** What `POST /ump/revise` takes. */
export type UmpReviseInput = z.input<typeof UmpReviseBody>;

/** `POST /ump/forget`. */
export const UmpForgetBody = body({
  ump: UmpVersion,
  id: RecordId,
  reason: sized("reason", 2048),
  hard: z.boolean({ error: specError("invalid_record", "hard must be a boolean", { field: "hard" }) }).optional()
    .meta({ description: "true: the erasure path (rows deleted); false: tombstoned" }),
}, { error: notObject("request body"), nulls: ["id", "reason", "hard"], meta: { id: "UmpForgetRequest" } });

/** What `POST /ump/forget` takes. */
export type UmpForgetInput = z.input<typeof UmpForgetBody>;

/** `POST /ump/feedback`. */
export const UmpFeedbackBody = body({
  ump: UmpVersion,
  id: RecordId,
  outcome: z.enum(FEEDBACK_OUTCOMES, { error: specError("invalid_record", `outcome must be one of ${FEEDBACK_OUTCOMES.join(", ")}`, { field: "outcome" }) }),
  session: sized("session", 256),
}, { error: notObject("request body"), nulls: ["id", "outcome", "session"], meta: { id: "UmpFeedbackRequest" } });

/** What `POST /ump/feedback` takes. */
export type UmpFeedbackInput = z.input<typeof UmpFeedbackBody>;

const count = (k: string, max: number) => {
  const e = specError("invalid_record", `${k} must be an integer from 0 to ${max}`, { field: k });
  return z.number({ error: e }).int({ error: e }).min(0, { error: e }).max(max, { error: e }).optional();
};

/** `POST /ump/audit` (an empty body reads from the start). */
export const UmpAuditBody = body({
  ump: UmpVersion,
  after: count("after", Number.MAX_SAFE_INTEGER).meta({ description: "Rows after this id" }),
  limit: count("limit", 1000).meta({ description: "1 to 1000, default 100" }),
  // A non-string action is ignored (no filter), as before the schema; typed as the string it should be.
  action: (z.preprocess((v) => (typeof v === "string" ? v : undefined), z.string().optional()) as unknown as z.ZodOptional<z.ZodString>)
    .meta({ type: "string", description: "Only rows of this action" }),
}, { error: notObject("request body"), nulls: ["after", "limit", "action"], meta: { id: "UmpAuditRequest", ...choice } });

/** What `POST /ump/audit` takes. */
export type UmpAuditInput = z.input<typeof UmpAuditBody>;

const text = (description?: string) => z.string().optional().meta(description ? { description } : {});

/**
 * A partial UMP 1.0 record as `POST /ump/remember` (and MCP `ump.remember`, and imports) take it. Types and
 * documents; `normaliseRecord` validates and completes it. Extension members of the same major version are kept.
 */
export const UmpRecordInput = z.object({
  ump: z.string().optional().meta({ example: "1.0" }),
  id: z.string().optional().meta({ pattern: "^urn:ump:[a-z2-7]+$" }),
  kind: z.enum(KINDS as [UmpKind, ...UmpKind[]]).meta({ description: "invalid_record otherwise" }),
  title: z.string().optional().meta({ description: "1 to 500 bytes" }),
  body: z.object({ text: z.string().meta({ description: "1 to 1,000,000 bytes" }), structured: z.unknown().optional() }),
  scope: z.object({
    owner: text("A DID; when given it must equal the authenticated principal (403 forbidden_scope)"),
    user: text(), project: text(), agent: text(), session: text(),
    visibility: z.enum(["private", "shared", "public"]).optional().meta({ description: "default private" }),
  }).optional(),
  time: z.object({ created: text(), observed: text(), valid_from: text(), valid_to: z.string().nullable().optional() }).optional(),
  lifecycle: z.object({
    confidence: z.number().min(0).max(1).optional(), salience: z.number().min(0).max(1).optional(), decay: text(),
    status: z.enum(["active", "candidate", "tombstoned"]).optional(),
  }).optional(),
  supersedes: z.array(z.string()).optional(),
  superseded_by: z.array(z.string()).optional(),
  relations: z.array(z.object({ type: z.string(), target: z.string() })).optional(),
  provenance: z.object({
    actor: text(), actor_kind: z.enum(["user", "agent", "model", "import", "scan"]).optional(), method: text(),
    source: z.object({ ref: z.string(), provider: z.string().optional() }).optional(),
    evidence: z.array(z.object({ ref: z.string(), weight: z.number() })).optional(),
  }).optional(),
  consent: z.object({
    retention: text("ISO 8601 duration from time.created; on expiry the record is tombstoned"),
    exportable: z.boolean().optional(),
    redact: z.array(z.string()).optional().meta({ description: "JSON paths stripped on export and across a visibility boundary" }),
  }).optional(),
  integrity: z.object({
    content_hash: z.string().meta({ pattern: "^blake3:[a-z2-7]+$" }),
    signature: text("ed25519:<base64>; present when an operator key is configured"),
    signer: text("did:key:z6Mk…"),
  }).optional(),
}).meta({ id: "UmpRecord", description: "A UMP 1.0 record (SPEC §2.8). Partial on write (kind and body.text required); complete when emitted." });

/** A partial UMP record as a client writes it. */
export type UmpRecordInput = z.input<typeof UmpRecordInput>;
