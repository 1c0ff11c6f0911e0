/**
 * The claim loop's six routes (SPEC §4.11, §2.12, §3; issue 17), declared as
 * schemas in code (`src/http/api-router.ts`). SPEC §4.11 leaves the bodies
 * "not shown", so every shape is this project's choice (`x-cairn-choice`).
 * Validation with spec codes lives in `src/claims/` (shared by every
 * binding), so request shapes here only document fields. Five routes are
 * gated `workflow`; promote admits every authenticated bearer and answers
 * 403 `promotion_disabled`, always (src/claims/promote.ts).
 */
import type { Hono } from "hono";
import { promoteClaim } from "../../claims/promote.ts";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { ClaimBatchBody, ClaimBody, ClaimSchemaBody } from "../../claims/claim-schema.ts";
import { actorOf } from "./workflow.ts";

const TAGS = ["claims"];
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const IdParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "1" }) });

const SchemaView = z.object({
  id: z.number().int(), name: z.string(), schema: z.record(z.string(), z.unknown()), schema_sha256: z.string(), created_at: z.string(),
}).openapi("ClaimSchema");
const Status = z.enum(["filed", "verified", "failed"]);
const Outcome = z.enum(["verified", "failed"]);
const Reason = z.object({
  code: z.enum(["evidence_missing", "evidence_erased", "evidence_superseded", "evidence_changed", "evidence_quarantined", "evidence_expired", "claim_invalid"]),
  message: z.string(), chunk_id: z.number().int().optional(), superseded_by: z.array(z.number().int()).optional(),
  path: z.string().optional(), keyword: z.string().optional(),
}).openapi("ClaimVerifyReason");
const ClaimView = z.object({
  id: z.number().int(), schema_id: z.number().int(), claim: z.unknown(), claim_sha256: z.string(),
  evidence: z.array(z.object({ chunk_id: z.number().int(), content_hash: z.string().optional() })),
  status: Status, reasons: z.array(Reason).optional(), created_at: z.string(), verified_at: z.string().optional(),
}).openapi("Claim");
// One verify answer: the claim route returns it, the batch route returns one per member.
const VerifyResult = z.object({ claim: ClaimView, outcome: Outcome, reasons: z.array(Reason), changed: z.boolean(), audit_id: z.number().int().optional() }).openapi("ClaimVerifyResult");
const Page = z.object({
  after: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

const createSchema = createRoute({
  method: "post", path: "/workflow/claim-schemas", operationId: "createClaimSchema", summary: "Create a claim schema (a JSON Schema in the supported subset)", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {name: ^[a-z][a-z0-9_.-]{0,63}$, schema: JSON Schema subset (type, properties, required, additionalProperties, items, minItems, maxItems, enum, const, minLength, maxLength, pattern, minimum, maximum; annotations $schema, $id, $comment, title, description, examples, default)} → 201 {created: true, schema} or 200 {created: false} for the same name and bytes; 400 claim_schema_invalid (unsupported keyword; a pattern outside RE2's linear-time syntax — lookaround, backreferences — over 256 characters or compiling past 2,000 steps); patterns run with RE2 semantics, the checks of one validation sharing a 20,000,000-step budget past which the value fails its pattern, 409 claim_schema_exists (same name, other schema); schemas are immutable",
  request: body(ClaimSchemaBody),
  responses: {
    200: json(z.object({ created: z.boolean(), schema: SchemaView }), "Already existed with the same bytes"),
    201: json(z.object({ created: z.boolean(), schema: SchemaView }), "Created"),
    ...errorResponses(400, 401, 403, 409, 415),
  },
});
const listSchemas = createRoute({
  method: "get", path: "/workflow/claim-schemas", operationId: "listClaimSchemas", summary: "List claim schemas, oldest first", tags: TAGS, security: BEARER,
  "x-cairn-choice": "?after=<id>&limit=1..1000 (default 100) → {schemas: [...]}",
  request: { query: Page },
  responses: { 200: json(z.object({ schemas: z.array(SchemaView) }), "Schemas"), ...errorResponses(400, 401, 403) },
});
const fileClaim = createRoute({
  method: "post", path: "/workflow/claims", operationId: "fileClaim", summary: "File a claim against a schema, with chunk ids as evidence", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {schema_id, claim: any JSON (≤ 64 KiB), evidence: [chunk id, …] 1..100} → 201 claim with status filed; the claim is validated at verify, not at filing; 404 not_found for an unknown schema_id, 400 evidence_invalid, 400 claim_too_large",
  request: body(ClaimBody),
  responses: { 201: json(ClaimView, "Filed"), ...errorResponses(400, 401, 403, 404, 415) },
});
const listClaims = createRoute({
  method: "get", path: "/workflow/claims", operationId: "listClaims", summary: "List claims, oldest first", tags: TAGS, security: BEARER,
  "x-cairn-choice": "?status=filed|verified|failed&schema_id=<id>&after=<id>&limit=1..1000 (default 100) → {claims: [...]}",
  request: { query: Page.extend({ status: Status.optional(), schema_id: z.coerce.number().int().min(1).optional() }) },
  responses: { 200: json(z.object({ claims: z.array(ClaimView) }), "Claims"), ...errorResponses(400, 401, 403) },
});
const getClaim = createRoute({
  method: "get", path: "/workflow/claims/{id}", operationId: "getClaim", summary: "A claim with its evidence and last verify outcome", tags: TAGS, security: BEARER,
  request: { params: IdParam },
  responses: { 200: json(ClaimView, "The claim"), ...errorResponses(400, 401, 403, 404) },
});
const verify = createRoute({
  method: "post", path: "/workflow/claims/{id}/verify", operationId: "verifyClaim", summary: "Verify a claim: evidence exists and is current, the claim validates", tags: TAGS, security: BEARER,
  "x-cairn-choice": "no body; 200 {claim, outcome: verified|failed, reasons: [{code, message, chunk_id?, superseded_by?, path?, keyword?}], changed, audit_id?}; a failed verify is an outcome, not an error; an audit row (claim_verified) whenever the status moves",
  request: { params: IdParam },
  responses: {
    200: json(VerifyResult, "Verified or failed"),
    ...errorResponses(400, 401, 403, 404),
  },
});
const promote = createRoute({
  method: "post", path: "/workflow/claims/{id}/promote", operationId: "promoteClaim", summary: "Always refused: 403 promotion_disabled", tags: TAGS, security: BEARER,
  "x-cairn-never-succeeds": true,
  "x-cairn-choice": "403 promotion_disabled for every authenticated actor (any role, the agent and roleless principals included), every write posture, any id and any body; a compile-time constant with no switch (src/claims/promote.ts)",
  request: { params: IdParam },
  responses: { ...errorResponses(401, 403) },
});

const BatchView = z.object({
  id: z.number().int(), name: z.string().optional(), claim_ids: z.array(z.number().int()), status: Status,
  created_at: z.string(), verified_at: z.string().optional(),
}).openapi("ClaimBatch");
const BATCH_CHOICE = "SPEC §2.12 names claim batches without fields: a batch is an ordered set of 1 to 100 existing claims (optional slug name), verified together in one transaction, with its own status (filed → verified when every member verified, else failed) and a claim_batch_verified audit row whenever it moves";
const createBatch = createRoute({
  method: "post", path: "/workflow/claim-batches", operationId: "createClaimBatch", summary: "File a batch of existing claims to verify together", tags: TAGS, security: BEARER,
  "x-cairn-choice": `${BATCH_CHOICE}. Body {claim_ids: [claim id, …] 1..100 distinct, name?: ^[a-z][a-z0-9_.-]{0,63}$} → 201 the batch (status filed); 404 not_found naming the missing ids`,
  request: body(ClaimBatchBody),
  responses: { 201: json(BatchView, "Filed"), ...errorResponses(400, 401, 403, 404, 415) },
});
const listBatches = createRoute({
  method: "get", path: "/workflow/claim-batches", operationId: "listClaimBatches", summary: "List claim batches, oldest first", tags: TAGS, security: BEARER,
  "x-cairn-choice": "?status=filed|verified|failed&after=<id>&limit=1..1000 (default 100) → {batches: [...]}",
  request: { query: Page.extend({ status: Status.optional() }) },
  responses: { 200: json(z.object({ batches: z.array(BatchView) }), "Batches"), ...errorResponses(400, 401, 403) },
});
const getBatch = createRoute({
  method: "get", path: "/workflow/claim-batches/{id}", operationId: "getClaimBatch", summary: "A claim batch with its members and last verify outcome", tags: TAGS, security: BEARER,
  "x-cairn-choice": BATCH_CHOICE,
  request: { params: IdParam },
  responses: { 200: json(BatchView, "The batch"), ...errorResponses(400, 401, 403, 404) },
});
const verifyBatch = createRoute({
  method: "post", path: "/workflow/claim-batches/{id}/verify", operationId: "verifyClaimBatch", summary: "Verify every claim of a batch together", tags: TAGS, security: BEARER,
  "x-cairn-choice": "no body; 200 {batch, outcome: verified|failed, claims: [each member's verify result, in order], failed: [claim ids], changed, audit_id?}; one transaction; each member keeps its own claim_verified audit rows",
  request: { params: IdParam },
  responses: {
    200: json(z.object({ batch: BatchView, outcome: Outcome, claims: z.array(VerifyResult), failed: z.array(z.number().int()), changed: z.boolean(), audit_id: z.number().int().optional() }), "Verified or failed"),
    ...errorResponses(400, 401, 403, 404),
  },
});

function claimId(raw: string): number {
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new MemoryError("invalid_request", "claim id must be a positive integer", { field: "id" }, 400);
  return n;
}

/** Registers the claim routes. */
export function claimRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  const cl = memory.claims;
  r.openapi(createSchema, async (c) => {
    const out = await cl.createSchema(c.req.valid("json"), { actor: actorOf(c) });
    return out.created ? c.json(out, 201) : c.json(out, 200);
  });
  r.openapi(listSchemas, async (c) => c.json({ schemas: await cl.listSchemas(c.req.valid("query")) }, 200));
  r.openapi(fileClaim, async (c) => c.json(await cl.file(c.req.valid("json"), { actor: actorOf(c) }), 201));
  r.openapi(listClaims, async (c) => {
    const q = c.req.valid("query");
    return c.json({ claims: await cl.list({ after: q.after, limit: q.limit, status: q.status, schemaId: q.schema_id }) }, 200);
  });
  r.openapi(getClaim, async (c) => c.json(await cl.get(claimId(c.req.valid("param").id)), 200));
  r.openapi(verify, async (c) => c.json(await cl.verify(claimId(c.req.valid("param").id), { actor: actorOf(c) }), 200));
  r.openapi(createBatch, async (c) => c.json(await cl.batches.create(c.req.valid("json"), { actor: actorOf(c) }), 201));
  r.openapi(listBatches, async (c) => {
    const q = c.req.valid("query");
    return c.json({ batches: await cl.batches.list({ after: q.after, limit: q.limit, status: q.status }) }, 200);
  });
  r.openapi(getBatch, async (c) => c.json(await cl.batches.get(claimId(c.req.valid("param").id)), 200));
  r.openapi(verifyBatch, async (c) => c.json(await cl.batches.verify(claimId(c.req.valid("param").id), { actor: actorOf(c) }), 200));
  // SPEC §3: no lookup, no parse, no branch: every call is the same refusal.
  r.openapi(promote, () => promoteClaim());
  app.route("/", r);
}
