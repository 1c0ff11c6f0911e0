/**
 * The ten UMP routes under `/ump/` plus `/.well-known/ump.json` (SPEC §4.9,
 * §5 items 4–6, §6), a thin binding over `memory.ump`, declared as schemas in
 * code (issue 21). The gate middleware resolves the caller on every route but
 * the capabilities document: with an operator key configured it demands a
 * capability token or the operator bearer, on loopback too (401
 * `unauthorized`); verbs and scope are checked per operation by the service.
 * Request bodies are the UMP schemas (src/ump/ump-schema.ts), which the
 * service parses with too (`invalid_record`); a remembered record is read by
 * hand and checked by `normaliseRecord`, which reports every problem at once.
 */
import type { Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { Memory } from "../../memory.ts";
import type { UmpActor } from "../../ump/actor.ts";
import { canRead } from "../../ump/actor.ts";
import type { UmpChange } from "../../ump/events.ts";
import { UmpAuditBody, UmpFeedbackBody, UmpForgetBody, UmpRecallBody, UmpReviseBody, type UmpAuditInput } from "../../ump/ump-schema.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { piiReadOf, principalOf } from "../principal.ts";
import { readJson } from "../read-json.ts";
import { AuditPage, AuditVerify, docBody, json, jsonBody, optionalBody, pathParam, RATE_LIMITED, ref, UmpCapabilities, UmpRecord, UmpRememberResult } from "../shapes.ts";

/** SSE heartbeat comment interval (keeps proxies from closing an idle stream). */
const HEARTBEAT_MS = 25_000;

/** The bearer value of a request, if any. */
export function bearerOf(c: Context): string | undefined {
  const h = c.req.header("authorization");
  const m = h ? /^Bearer[ \t]+(.+)$/i.exec(h.trim()) : null;
  return m ? m[1].trim() : undefined;
}

/** Resolves the UMP caller of a request; `strict` (UMP routes) refuses the anonymous caller of a keyed store with 401. */
export function umpActor(c: Context, memory: Memory, strict = true): Promise<UmpActor> {
  return memory.ump.authenticate({ bearer: bearerOf(c), principal: principalOf(c), piiRead: piiReadOf(c), strict });
}

const tags = ["ump"];
const Feedback = z.object({ followed: z.number().int(), overridden: z.number().int(), ignored: z.number().int(), contradicted: z.number().int() });

const capabilities = createRoute({
  method: "get", path: "/ump/capabilities", operationId: "getUmpCapabilities", tags, security: [], summary: "UMP capabilities document (SPEC §2.8), public",
  responses: { 200: json(UmpCapabilities, "Capabilities"), ...RATE_LIMITED },
});
const wellKnown = createRoute({
  method: "get", path: "/.well-known/ump.json", operationId: "getUmpDiscovery", tags, security: [], summary: "UMP discovery, the capabilities document (SPEC §4.9), public",
  responses: { 200: json(UmpCapabilities, "Capabilities"), ...RATE_LIMITED },
});
const remember = createRoute({
  method: "post", path: "/ump/remember", operationId: "umpRemember", tags, security: BEARER,
  summary: "Remember a partial record (SPEC §4.9)", description: "With an operator key configured every /ump/ route but the capabilities document needs a capability token (`Authorization: Bearer umpcap.…`) or the operator bearer, on loopback too (401 unauthorized otherwise). A capability token's principal is its `aud`, or its issuer when it names none (x-cairn-choice). `merged`: a live record with the same text, kind and scope already exists (content dedup by design). `rejected`: the injection screen refused the text. Under review posture the record is filed as a proposal (`review: {status: pending, proposal_id}`; `id` names the record as submitted, nothing is stored), or refused with 503 review_unavailable when no review queue is wired.", "x-cairn-choice": true,
  request: { body: docBody({ "application/json": ref("UmpRecord") }) },
  responses: { 200: json(UmpRememberResult, "Result"), ...errorResponses(400, 401, 403, 503) },
});
const get = createRoute({
  method: "get", path: "/ump/memory/{id}", operationId: "umpGet", tags, security: BEARER,
  summary: "Fetch one record, integrity verified before return (SPEC §4.9)", description: "Reply `{record, untrusted: true, feedback: {followed, overridden, ignored, contradicted}}`. The record passes the read seam (text fields) and consent.redact across a visibility boundary; a view that changed is sealed again (signed by the operator key). Superseded versions stay readable; forgotten ones are 404.", "x-cairn-choice": true,
  request: { params: z.object({ id: pathParam("id") }) },
  responses: {
    200: json(z.object({ record: UmpRecord, untrusted: z.literal(true), feedback: Feedback }).openapi("UmpGetResult"), "{record, untrusted, feedback}"),
    ...errorResponses(401, 403, 404, 500),
  },
});
const recall = createRoute({
  method: "post", path: "/ump/recall", operationId: "umpRecall", tags, security: BEARER,
  summary: "Recall records over the /recall pipeline (SPEC §4.9)", description: "Body `{query, scope?, filter?: {kind?, valid_at?}, limit? (1-50, default 5)}`. Scope, kind, visibility and the token's scope filter candidates before ranking; `valid_at` is the recall `at` (the version valid then). Items `{record, score, signals: {similarity, recency, salience, scope_match, provenance_depth}, untrusted}`; signal definitions in src/ump/recall-records.ts.", "x-cairn-choice": true,
  request: { body: jsonBody(UmpRecallBody) },
  responses: {
    200: json(z.object({
      results: z.array(z.object({
        record: UmpRecord, score: z.number(), untrusted: z.literal(true),
        signals: z.object({ similarity: z.number(), recency: z.number(), salience: z.number(), scope_match: z.number(), provenance_depth: z.number() }),
      })),
    }).openapi("UmpRecallResult"), "{results}"),
    ...errorResponses(400, 401, 403),
  },
});
const revise = createRoute({
  method: "post", path: "/ump/revise", operationId: "umpRevise", tags, security: BEARER,
  summary: "Revise a record, superseding the old version (SPEC §3, §4.9)", description: "Body `{id, patch}` with `patch` a JSON Merge Patch (RFC 7386); id, integrity, supersedes, superseded_by and ump cannot be patched. Reply `{id: <new>, supersedes: [<old>]}`. The old version gets time.valid_to and superseded_by. 409 conflict when the version is already superseded. Under review posture the new version is filed as a proposal (`review: {status: pending, proposal_id}`) and the old version stays current.", "x-cairn-choice": true,
  request: { body: jsonBody(UmpReviseBody) },
  responses: {
    200: json(z.object({
      id: z.string(), supersedes: z.array(z.string()), review: z.object({ status: z.literal("pending"), proposal_id: z.number().int() }).optional(),
    }).openapi("UmpReviseResult"), "{id, supersedes}"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});
const forget = createRoute({
  method: "post", path: "/ump/forget", operationId: "umpForget", tags, security: BEARER,
  summary: "Forget a record and its lineage, soft or hard (SPEC §3, §4.9)", description: "Body `{id, reason?, hard?}`. Soft: lifecycle.status tombstoned, tombstone row, no deletion. Hard: the erasure path (chunk, vector and record rows deleted, tombstone). Reply `{result: tombstoned | erased}`; one ump_forget audit row.", "x-cairn-choice": true,
  request: { body: jsonBody(UmpForgetBody) },
  responses: { 200: json(z.object({ result: z.enum(["tombstoned", "erased"]) }), "{result}"), ...errorResponses(400, 401, 403, 404) },
});
const feedback = createRoute({
  method: "post", path: "/ump/feedback", operationId: "umpFeedback", tags, security: BEARER,
  summary: "Report the outcome of a recalled record (SPEC §4.9)", description: "Body `{id, outcome: followed|overridden|ignored|contradicted, session?}` → `{ok: true}`. Stored and counted; needs read.", "x-cairn-choice": true,
  request: { body: jsonBody(UmpFeedbackBody) },
  responses: { 200: json(z.object({ ok: z.literal(true) }), "{ok: true}"), ...errorResponses(400, 401, 403, 404) },
});
const subscribe = createRoute({
  method: "get", path: "/ump/subscribe", operationId: "umpSubscribe", tags, security: BEARER,
  summary: "Server-sent change events, `{kind, id}` only (SPEC §6)", description: "`event: change`, `data: {\"kind\": created|revised|superseded|tombstoned|erased|feedback, \"id\": urn}` for records the caller may read; a `: ping` comment every 25 s. Changes made by other processes (the CLI) are not seen.", "x-cairn-choice": true,
  responses: { 200: { description: "Stream", content: { "text/event-stream": { schema: z.string() } } }, ...errorResponses(401, 403) },
});
const audit = createRoute({
  method: "post", path: "/ump/audit", operationId: "umpAudit", tags, security: BEARER,
  summary: "Read the hash-chained audit log (SPEC §4.9)", description: "Body `{after?, limit? (1-1000), action?}` (or empty) → `{rows, next_after?}` as GET /audit. Needs the operator or an unscoped token with read.", "x-cairn-choice": true,
  // An empty body reads the log from the start: documented, read by the handler.
  request: { body: optionalBody(ref("UmpAuditRequest")) },
  responses: { 200: json(AuditPage, "{rows, next_after?}"), ...errorResponses(400, 401, 403) },
});
const auditVerify = createRoute({
  method: "get", path: "/ump/audit/verify", operationId: "umpAuditVerify", tags, security: BEARER, summary: "Verify the audit chain (SPEC §4.9), as GET /audit/verify",
  responses: { 200: json(AuditVerify, "{ok, rows, head?, first_broken?}"), ...errorResponses(401, 403) },
});

/** Registers the UMP routes. */
export function umpRoutes(app: Hono, memory: Memory) {
  const actor = (c: Context) => (c.get as (k: string) => unknown)("umpActor") as UmpActor;
  const r = apiRouter();
  r.openAPIRegistry.register("UmpRecord", UmpRecord);
  r.openAPIRegistry.register("UmpAuditRequest", UmpAuditBody);
  // Every other /ump/ route resolves its caller first (SPEC §5 item 6: signature and expiry in middleware).
  r.use("/ump/*", async (c, next) => {
    if (c.req.path === "/ump/capabilities") return await next();
    (c.set as (k: string, v: unknown) => void)("umpActor", await umpActor(c, memory));
    await next();
  });
  const routes = r
    .openapi(capabilities, async (c) => c.json(await memory.ump.capabilities(), 200))
    .openapi(wellKnown, async (c) => c.json(await memory.ump.capabilities(), 200))
    // A partial record: normaliseRecord checks it in full (every problem at once, invalid_record).
    .openapi(remember, async (c) => c.json(await memory.ump.remember(actor(c), await readJson(c)) as z.infer<typeof UmpRememberResult>, 200))
    .openapi(get, async (c) => c.json(await memory.ump.get(actor(c), c.req.valid("param").id) as never, 200))
    .openapi(recall, async (c) => c.json(await memory.ump.recall(actor(c), c.req.valid("json")) as never, 200))
    .openapi(revise, async (c) => c.json(await memory.ump.revise(actor(c), c.req.valid("json")) as never, 200))
    .openapi(forget, async (c) => c.json(await memory.ump.forget(actor(c), c.req.valid("json")), 200))
    .openapi(feedback, async (c) => c.json(await memory.ump.feedback(actor(c), c.req.valid("json")), 200))
    // An empty body reads from the start; the service parses a given one with UmpAuditBody (after the scope check).
    .openapi(audit, async (c) => c.json(await memory.ump.audit(actor(c), (await c.req.text()).trim() === "" ? undefined : await readJson(c) as UmpAuditInput), 200))
    .openapi(auditVerify, async (c) => c.json(await memory.ump.auditVerify(actor(c)), 200))
    // SPEC §6: a change signal only, `{kind, id}`, never a body; only changes the caller may read.
    .openapi(subscribe, (c) => subscribeStream(c, memory, actor(c)) as never);
  app.route("/", routes);
  return routes;
}

function subscribeStream(c: Context, memory: Memory, who: UmpActor): Response {
  return streamSSE(c, async (stream) => {
    const queue: UmpChange[] = [];
    let wake: (() => void) | undefined;
    const off = memory.ump.events.subscribe((ch) => {
      if (!canRead(who, ch.scope)) return;
      queue.push(ch);
      wake?.();
    });
    stream.onAbort(() => {
      off();
      wake?.();
    });
    try {
      await stream.write(": connected\n\n");
      while (!stream.aborted && !stream.closed) {
        while (queue.length) {
          const ch = queue.shift()!;
          await stream.writeSSE({ event: "change", data: JSON.stringify({ kind: ch.kind, id: ch.id }) });
        }
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, HEARTBEAT_MS);
          wake = () => {
            clearTimeout(t);
            resolve();
          };
        });
        wake = undefined;
        if (!queue.length && !stream.aborted) await stream.write(": ping\n\n");
      }
    } finally {
      off();
    }
  });
}
