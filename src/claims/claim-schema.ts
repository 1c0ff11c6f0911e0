/**
 * The claims-loop bodies (SPEC §2.12, §4.11; shapes this project's choice) as schemas that validate and type:
 * `POST /workflow/claim-schemas` `{name, schema}` and `POST /workflow/claims` `{schema_id, claim, evidence}`. A claim
 * is any JSON (null included); the schema's keywords and the claim's size are the claim service's checks.
 */
import { z } from "zod";
import { body, specError } from "../core/schema.ts";

/** Most evidence chunk ids one claim may cite. */
export const MAX_EVIDENCE = 100;
const NAME = /^[a-z][a-z0-9_.-]{0,63}$/;
const notObject = specError("invalid_request", "body must be a JSON object");
const badName = specError("invalid_request", "name must match ^[a-z][a-z0-9_.-]{0,63}$", { field: "name" });
const required = (code: string, field: string) => z.unknown().refine((v) => v !== undefined, { error: specError(code, `${field} is required`, { field }) });

/** `POST /workflow/claim-schemas`. */
export const ClaimSchemaBody = body({
  name: z.string({ error: badName }).regex(NAME, { error: badName }).meta({ example: "refund-eligibility" }),
  schema: required("claim_schema_invalid", "schema").meta({
    description: "A JSON Schema in the supported subset (claim_schema_invalid otherwise)",
    example: { type: "object", required: ["order"], properties: { order: { type: "string" } } },
  }),
}, { error: notObject, nulls: "keep", meta: { id: "ClaimSchemaRequest", "x-cairn-choice": true } });

/** What `POST /workflow/claim-schemas` takes. */
export type ClaimSchemaInput = z.input<typeof ClaimSchemaBody>;

const badSchemaId = specError("invalid_request", "schema_id must be a positive integer", { field: "schema_id" });
const badEvidence = specError("evidence_invalid", `evidence must be a list of 1 to ${MAX_EVIDENCE} chunk ids`, { field: "evidence", min: 1, max: MAX_EVIDENCE });
const badItem = specError("evidence_invalid", "every evidence item must be a positive integer chunk id", { field: "{dotted}" });

/** `POST /workflow/claims`. */
export const ClaimBody = body({
  schema_id: z.number({ error: badSchemaId }).int({ error: badSchemaId }).min(1, { error: badSchemaId }).max(Number.MAX_SAFE_INTEGER, { error: badSchemaId })
    .meta({ example: 1 }),
  claim: required("invalid_request", "claim").meta({ description: "Any JSON (at most 64 KiB); validated against the schema at verify", example: { order: "A-1001" } }),
  evidence: z.array(z.number({ error: badItem }).int({ error: badItem }).min(1, { error: badItem }).max(Number.MAX_SAFE_INTEGER, { error: badItem }), { error: badEvidence })
    .min(1, { error: badEvidence }).max(MAX_EVIDENCE, { error: badEvidence })
    .meta({ description: "Chunk ids the claim rests on", example: [12, 15] }),
}, { error: notObject, nulls: "keep", meta: { id: "ClaimRequest", "x-cairn-choice": true } });

/** What `POST /workflow/claims` takes. */
export type ClaimInput = z.input<typeof ClaimBody>;

/** Members per claim batch. */
export const MAX_BATCH_CLAIMS = 100;
const badIds = specError("invalid_request", `claim_ids must be a list of 1 to ${MAX_BATCH_CLAIMS} claim ids`, { field: "claim_ids", min: 1, max: MAX_BATCH_CLAIMS });
const badId = specError("invalid_request", "every claim id must be a positive integer", { field: "{dotted}" });

/** `POST /workflow/claim-batches`: 1 to 100 distinct existing claims, verified together. */
export const ClaimBatchBody = body({
  name: z.string({ error: badName }).regex(NAME, { error: badName }).optional().meta({ example: "refunds-week-48" }),
  claim_ids: z.array(z.number({ error: badId }).int({ error: badId }).min(1, { error: badId }).max(Number.MAX_SAFE_INTEGER, { error: badId }), { error: badIds })
    .min(1, { error: badIds }).max(MAX_BATCH_CLAIMS, { error: badIds })
    .refine((ids) => new Set(ids).size === ids.length, { error: specError("invalid_request", "claim_ids must not repeat a claim", { field: "claim_ids" }) })
    .meta({ example: [1, 2] }),
}, { error: notObject, nulls: "keep", meta: { id: "ClaimBatchRequest", "x-cairn-choice": true } });

/** What `POST /workflow/claim-batches` takes. */
export type ClaimBatchInput = z.input<typeof ClaimBatchBody>;
