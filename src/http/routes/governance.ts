/**
 * Review and consolidation routes (SPEC §4.2 `/ingest/proposal`, §4.3
 * review, §4.4 consolidation): thin bindings over `memory.review` and
 * `memory.consolidate`, declared as schemas in code (issue 21). Purge and
 * erasure live in `erasure.ts`.
 */
import type { Context, Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { parseWith } from "../../core/schema.ts";
import { ConsolidateBody, ConsolidateProposeBody, ConsolidateUndoBody } from "../../review/consolidate-schema.ts";
import { ProposalBody } from "../../review/parse-proposal.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { piiReadOf } from "../principal.ts";
import { json, jsonBody, Link, optionalBody, pathParam, ProposalView, q, ref } from "../shapes.ts";

function idParam(raw: string | undefined, field = "id"): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw) || Number(raw) < 1) {
    throw new MemoryError("invalid_id", `${field} must be a positive integer`, { field }, 400);
  }
  return Number(raw);
}

/** A paging query value; shared with the erasure routes. */
export function intQuery(c: Context, name: string, dflt: number, max: number): number {
  const v = c.req.query(name);
  if (v === undefined || v === "") return dflt;
  if (!/^[0-9]{1,15}$/.test(v) || Number(v) > max) throw new MemoryError("invalid_request", `${name} must be an integer from 0 to ${max}`, { field: name });
  return Number(v);
}

/** An optional JSON body: empty is `{}`. */
async function bodyOrEmpty(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  try {
    const v = JSON.parse(text);
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v;
  } catch { /* fall through */ }
  throw new MemoryError("invalid_json", "request body must be a JSON object");
}

const IdParams = z.object({ id: pathParam("id", { type: "integer", description: "Non-numeric → 400 invalid_id" }) });
const paging = (max: number) => ({ after: q(undefined, { type: "integer", minimum: 0 }), limit: q(undefined, { type: "integer", minimum: 1, maximum: max }) });

const propose = createRoute({
  method: "post", path: "/ingest/proposal", operationId: "fileProposal", tags: ["governance"], security: BEARER,
  summary: "File a scored proposal for human review; creates no knowledge row (SPEC §3)", description: "Write posture (SPEC §1): CAIRN_WRITE_POSTURE=open (default) inserts directly through the six posture-carrying doors (screened, not gated); review makes them file proposals instead. The six: POST /ingest/memory, POST /add, POST /ump/remember, POST /ump/revise, POST /ingest?format=ump|ump-md, POST /webhooks/channel/{kind}. Under review, /ingest/memory and /add answer each entry with {status: proposed, proposal_id, domain}. Not posture-carrying: /ingest and /ingest/markdown (always direct), /ingest/proposal (always a proposal), /parcels/import (always pending).", "x-cairn-choice": "Body {content, title?, domain?, kind?: memory|capture, origin?, owner?, source? (≤64 bytes), source_prompt? (≤2048 bytes)}. Reply {id, status: pending, score, verdict: clean|quarantine|reject, domain, untrusted: true, duplicate?: true}; an identical pending proposal is returned (duplicate: true) and nothing is written. The screen verdict is filed for the reviewer; it is refused (400 content_rejected) only where INJECTION_POLICY refuses it at every write door. The score is deterministic: 0.4·safety (1 − screen score) + 0.25·novelty (0 if the content is already stored) + 0.2·substance (distinct analyzer terms / 8, capped) + 0.15·provenance (origin trust), rounded to 4 places.",
  request: { body: jsonBody(ProposalBody) },
  responses: {
    200: json(z.object({
      id: z.number().int(), status: z.literal("pending"), score: z.number(), verdict: z.string(), domain: z.string(), untrusted: z.literal(true), duplicate: z.literal(true).optional(),
    }).openapi("FiledProposal"), "Filed proposal"),
    ...errorResponses(400, 401, 403),
  },
});

const list = createRoute({
  method: "get", path: "/proposals", operationId: "listProposals", tags: ["governance"], security: BEARER,
  summary: "List proposals as review views, each with content_digest (SPEC §4.3)", "x-cairn-choice": "Query status (pending|approved|rejected), after (id), limit (1–500, default 100). Reply: a JSON array of {id, status, kind, door, domain, title?, content, content_digest, score, score_breakdown{score, components[{name, weight, value, contribution, why}]}, screen{verdict, reasons, score}, source_prompt?, source?, origin?, owner?, raw_evidence{bytes, sha256, removed_by_read_seam, escaped}, created_at, decided_at?, promoted_chunk_id (integer or null), supersedes?, untrusted: true}. title/content are the read-canonical form (the read seam without PII redaction) for a principal holding pii:read; for any other principal every text field is also PII-redacted and pii_redacted: true is set. content_digest is the same for both: it binds the un-redacted canonical form, so a changed redacted value also fails closed; raw_evidence.escaped is the stored text with invisible and control characters written as \\u{XXXX}. content_digest = sha256hex(\"cairn-review-digest/1\\n\" + pipeline fingerprint + \"\\n\" + JSON.stringify([kind, domain, canonical(title)|null, canonical(content)])), where the fingerprint is SHA-256 over the read seam's step list and rule tables.",
  request: { query: z.object({ status: q(undefined, { enum: ["pending", "approved", "rejected"] }), ...paging(500) }) },
  responses: { 200: json(z.array(ProposalView), "Array of proposal views"), ...errorResponses(400, 401, 403) },
});

const get = createRoute({
  method: "get", path: "/proposals/{id}", operationId: "getProposal", tags: ["governance"], security: BEARER,
  summary: "One proposal's review view", "x-cairn-choice": "same view as one /proposals element; 404 not_found",
  request: { params: IdParams },
  responses: { 200: json(ProposalView, "Proposal view"), ...errorResponses(400, 401, 403, 404) },
});

const approve = createRoute({
  method: "post", path: "/proposals/{id}/approve", operationId: "approveProposal", tags: ["governance"], security: BEARER,
  summary: "Approve a pending proposal bound to its digest; promotes it to a memory row in one transaction with the audit row", "x-cairn-choice": "Reply {id, status: approved, promoted_chunk_id (null when identical content was already stored), chunk_status: created|duplicate, chunk_id, supersedes?, link_id?, flagged?: true}. Codes: 400 digest_required; 409 digest_mismatch (content or read pipeline changed: fail closed, the current digest is not revealed); 409 proposal_not_pending; 404 not_found (proposal or supersedes target); 409 conflict (the supersede would close a cycle). supersedes=<chunk_id> records an approved supersedes link from the promoted chunk. Capture proposals promote with memory_kind kcs_draft. The promoted chunk passes the write-path screen: content the screen quarantines is promoted flagged (reply flagged: true) and stays out of recall until a second human step releases it through POST /quarantine/{id}/release (two keys for flagged content).",
  request: {
    params: IdParams,
    query: z.object({ digest: q("Required (digest_required); the view's content_digest"), supersedes: q(undefined, { type: "integer" }) }),
  },
  responses: {
    200: json(z.object({
      id: z.number().int(), status: z.literal("approved"), promoted_chunk_id: z.number().int().nullable(),
      chunk_status: z.enum(["created", "duplicate"]).optional().openapi({ description: "Absent when a governed door's hook ran instead of a promotion (then `effect` is present)" }),
      chunk_id: z.number().int().optional(), supersedes: z.number().int().optional(), link_id: z.number().int().optional(), flagged: z.literal(true).optional(),
      effect: z.record(z.string(), z.unknown()).optional().openapi({ description: "What a governed door's approval did (e.g. a channel/out envelope became drainable)" }),
      record_id: z.string().optional().openapi({ description: "The UMP record id the approval stored, when a UMP door filed the proposal" }),
    }).openapi("ApproveResult"), "Promotion result"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

const reject = createRoute({
  method: "post", path: "/proposals/{id}/reject", operationId: "rejectProposal", tags: ["governance"], security: BEARER,
  summary: "Reject a pending proposal (audited, never deleted; any reason is accepted and not persisted)", "x-cairn-choice": "Reply {id, status: rejected}; 404 not_found; 409 proposal_not_pending",
  request: { params: IdParams, query: z.object({ reason: q("Accepted, ignored") }) },
  responses: { 200: json(z.object({ id: z.number().int(), status: z.literal("rejected") }), "Rejection result"), ...errorResponses(400, 401, 403, 404, 409) },
});

// The consolidation bodies may be empty (`{}`): documented, read by the handler.
const consolidatePropose = createRoute({
  method: "post", path: "/consolidate/propose", operationId: "proposeLinks", tags: ["governance"], security: BEARER,
  summary: "Propose supersedes/contradicts links deterministically", "x-cairn-choice": "Body {domain?, threshold? (0–1, default 0.9)} (may be empty). Rules: two current graph edges with the same subject and relation but different objects and overlapping valid windows, owned by two unflagged chunks → contradicts; two unflagged chunks of one domain whose term-vector cosine (lexical analyzer terms, ≥3 distinct terms each) is ≥ threshold → supersedes. Links point newer → older. A pair that already has a link of that kind (any status) is not proposed again. Reply {proposed: [Link], threshold}; Link = {id, kind, from, to, status: proposed|approved|undone|dismissed, basis, created_at, approved_at?, closed_at?}.",
  request: { body: optionalBody(ref("ConsolidateProposeRequest")) },
  responses: { 200: json(z.object({ proposed: z.array(Link), threshold: z.number() }), "Newly proposed links"), ...errorResponses(400, 401, 403) },
});

const links = createRoute({
  method: "get", path: "/consolidate/links", operationId: "listLinks", tags: ["governance"], security: BEARER,
  summary: "List consolidation links", "x-cairn-choice": "query status (proposed|approved|undone|dismissed), after, limit (1–500); reply: array of Link",
  request: { query: z.object({ status: q(undefined, { enum: ["proposed", "approved", "undone", "dismissed"] }), ...paging(500) }) },
  responses: { 200: json(z.array(Link), "Array of links"), ...errorResponses(400, 401, 403) },
});

const consolidate = createRoute({
  method: "post", path: "/consolidate", operationId: "approveLink", tags: ["governance"], security: BEARER,
  summary: "Approve a consolidation link (current recall stops returning a superseded chunk; at before the approval still does)", "x-cairn-choice": "Body {id} approves a proposed link, or {from, to, kind?: supersedes (default)|contradicts} files and approves one. Reply: the Link. 404 not_found, 409 conflict (not proposed, already approved, or a supersede cycle).",
  request: { body: optionalBody(ref("ConsolidateRequest")) },
  responses: { 200: json(Link, "Approved link"), ...errorResponses(400, 401, 403, 404, 409) },
});

const undo = createRoute({
  method: "post", path: "/consolidate/undo", operationId: "undoLink", tags: ["governance"], security: BEARER,
  summary: "Reverse an approved link (status undone) or dismiss a proposed one (status dismissed)", "x-cairn-choice": "Body {id}; reply: the Link; 404 not_found; 409 conflict when already undone or dismissed",
  request: { body: optionalBody(ref("ConsolidateUndoRequest")) },
  responses: { 200: json(Link, "Closed link"), ...errorResponses(400, 401, 403, 404, 409) },
});

/** Registers the review and consolidation routes. */
export function governanceRoutes(app: Hono, memory: Memory) {
  const r = apiRouter();
  // Bodies that may be empty are read by hand (an empty body is `{}`) and parsed with their schemas.
  r.openAPIRegistry.register("ConsolidateProposeRequest", ConsolidateProposeBody);
  r.openAPIRegistry.register("ConsolidateRequest", ConsolidateBody);
  r.openAPIRegistry.register("ConsolidateUndoRequest", ConsolidateUndoBody);
  const routes = r
    .openapi(propose, async (c) => c.json(await memory.review.propose(c.req.valid("json")), 200))
    .openapi(list, async (c) => c.json(await memory.review.list({
      status: c.req.query("status") || undefined, after: intQuery(c, "after", 0, Number.MAX_SAFE_INTEGER), limit: Math.max(1, intQuery(c, "limit", 100, 500)),
      piiRead: piiReadOf(c),
    }) as z.infer<typeof ProposalView>[], 200))
    .openapi(get, async (c) => c.json(await memory.review.get(idParam(c.req.param("id")), { piiRead: piiReadOf(c) }) as z.infer<typeof ProposalView>, 200))
    .openapi(approve, async (c) => {
      const id = idParam(c.req.param("id"));
      const s = c.req.query("supersedes");
      return c.json(await memory.review.approve(id, { digest: c.req.query("digest"), supersedes: s === undefined || s === "" ? undefined : idParam(s, "supersedes") }), 200);
    })
    // SPEC §3: a `reason` is accepted (query or body) and not persisted, so the body is never read.
    .openapi(reject, async (c) => c.json(await memory.review.reject(idParam(c.req.param("id"))), 200))
    .openapi(consolidatePropose, async (c) => c.json(await memory.consolidate.propose(parseWith(ConsolidateProposeBody, await bodyOrEmpty(c))), 200))
    .openapi(links, async (c) => c.json(await memory.consolidate.list({
      status: c.req.query("status") || undefined, after: intQuery(c, "after", 0, Number.MAX_SAFE_INTEGER), limit: Math.max(1, intQuery(c, "limit", 100, 500)),
    }), 200))
    .openapi(consolidate, async (c) => c.json(await memory.consolidate.approve(parseWith(ConsolidateBody, await bodyOrEmpty(c))), 200))
    .openapi(undo, async (c) => c.json(await memory.consolidate.undo(parseWith(ConsolidateUndoBody, await bodyOrEmpty(c)).id), 200));
  app.route("/", routes);
  return routes;
}
