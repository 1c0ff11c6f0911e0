/**
 * Workflow and case routes (SPEC §4.11), declared as schemas in code
 * (`src/http/api-router.ts`). SPEC §4.11 leaves every body "not shown", so
 * each shape is this project's choice (`x-cairn-choice`). Bodies are the
 * schemas of src/workflow/workflow-schema.ts, which the service parses with
 * too (shared with the CLI and connectors). Every route is gated
 * `workflow` in src/http/gates.ts: the workflow-operator role may act, the
 * agent role is refused whatever else it holds (SPEC §5 item 3).
 */
import type { Context, Hono } from "hono";
import { hashSubject } from "../../authz/subject-hash.ts";
import type { Memory } from "../../memory.ts";
import { parseRunId } from "../../workflow/deps.ts";
import { CaseBody, ChannelOutBody, LifecycleBody, MountBody, NoteBody, OpenRunBody, StatusRefBody } from "../../workflow/workflow-schema.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { piiReadOf, principalOf } from "../principal.ts";

const Json = z.record(z.string(), z.unknown());
const RunView = z.object({
  id: z.number().int(), case_ref: z.string(), origin: z.string(),
  state: z.enum(["open", "waiting_customer", "closed_solved", "merged_away"]), state_json: Json, sla_class: z.string(), reopened: z.number().int(),
  opened_at: z.string(), updated_at: z.string(), due_at: z.string(), closed_at: z.string().optional(),
  channel: z.object({ kind: z.string(), conversation_ref: z.string() }).optional(), case: Json.optional(), signals: Json.optional(),
}).openapi("WorkflowRun");
const Posted = z.object({ event_id: z.number().int(), audit_id: z.number().int(), type: z.string() }).openapi("WorkflowEvent");
const IdParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "1" }) });
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const body = <T extends z.ZodType>(schema: T) => ({ body: { required: true, content: { "application/json": { schema } } } });
const TAGS = ["workflow"];

const open = createRoute({
  method: "post", path: "/workflow/runs", operationId: "openWorkflowRun", summary: "Open or reuse the governed run of state_json.case_ref", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {state_json: {case_ref: crm:{source}:{org}:{id}, origin, channel?: {kind, conversation_ref}}}; 201 {run, reused: false} or 200 {run, reused: true}",
  request: body(OpenRunBody),
  responses: { 200: json(z.object({ run: RunView, reused: z.boolean() }), "Reused"), 201: json(z.object({ run: RunView, reused: z.boolean() }), "Opened"), ...errorResponses(400, 401, 403) },
});
const get = createRoute({
  method: "get", path: "/workflow/runs/{id}", operationId: "getWorkflowRun", summary: "A run with its signals and events", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: the run view plus signals and its outbox events",
  request: { params: IdParam },
  responses: { 200: json(RunView.extend({ events: z.array(Json) }), "The run"), ...errorResponses(400, 401, 403, 404) },
});
const lifecycle = createRoute({
  method: "post", path: "/workflow/runs/{id}/complaint/lifecycle", operationId: "complaintLifecycle", summary: "Confirm-gate close and the complaint lifecycle", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {action: contact_attempt | customer_confirmed | closed_solved | merged_away | reopened}; 409 close_gate_unmet, merge_not_seen, illegal_transition, run_not_active",
  request: { params: IdParam, ...body(LifecycleBody) },
  responses: { 200: json(z.object({ action: z.string(), run: RunView, event: Posted }), "Done"), ...errorResponses(400, 401, 403, 404, 409) },
});
const statusRef = createRoute({
  method: "post", path: "/workflow/runs/{id}/status-ref", operationId: "mintStatusRef", summary: "Mint an unguessable case status reference", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {action: mint} → {ref, run_id, document: {status, promise, sentence, build}}",
  request: { params: IdParam, ...body(StatusRefBody) },
  responses: {
    200: json(z.object({ ref: z.string(), run_id: z.number().int(), document: z.object({ status: z.string(), promise: z.string(), sentence: z.string(), build: z.string() }) }), "Minted"),
    ...errorResponses(400, 401, 403, 404),
  },
});
const reply = createRoute({
  method: "post", path: "/workflow/runs/{id}/channel-out", operationId: "draftChannelOut", summary: "Draft a channel/out reply (filed in the review gate)", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: body {text} → a pending proposal a human approves at /proposals/{id}/approve; then the drain hands it out",
  request: { params: IdParam, ...body(ChannelOutBody) },
  responses: {
    201: json(z.object({ envelope_id: z.number().int(), proposal_id: z.number().int(), run_id: z.number().int(), status: z.literal("pending_review") }), "Filed"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});
const note = createRoute({
  method: "post", path: "/workflow/runs/{id}/notes", operationId: "addWorkflowNote", summary: "Add an operator note (audited); reask: true records a re-ask", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: the HTTP twin of `cairn workflow note <run> <text> [--reask]`",
  request: { params: IdParam, ...body(NoteBody) },
  responses: { 201: json(z.object({ run_id: z.number().int(), events: z.array(Posted) }), "Noted"), ...errorResponses(400, 401, 403, 404) },
});
const cases = createRoute({
  method: "post", path: "/workflow/cases", operationId: "applyCaseEnvelope", summary: "Apply a CrmCase envelope (operator-posted; connectors call the same service)", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: body {case: CrmCase (SPEC §2.11), origin?: default operator}; 400 case_invalid names the field",
  request: body(CaseBody),
  responses: { 200: json(z.object({ status: z.enum(["applied", "unchanged"]), created: z.boolean(), run: RunView }), "Applied"), ...errorResponses(400, 401, 403, 409) },
});
const mount = createRoute({
  method: "post", path: "/workflow/plugins/mount", operationId: "mountPlugin", summary: "Register a plugin mount with bridge-config evidence", tags: TAGS, security: [...BEARER, { standardWebhooks: [] }],
  "x-cairn-choice": "body {plugin, kind, evidence: {bridge_config_sha256}}; 409 mount_evidence_mismatch; 404 for a kind without a bridge config; a workflow bearer or a Standard-Webhooks signature with the channel secret (the gateway holds no service token, SPEC §5 item 10); a signed webhook-id is accepted once across the signed routes, a replay inside the ±300 s window is 409 webhook_replayed",
  request: body(MountBody),
  responses: { 201: json(z.object({ mount_id: z.number().int(), plugin: z.string(), kind: z.string(), mounted: z.literal(true) }), "Mounted"), ...errorResponses(400, 401, 403, 404, 409) },
});
const events = createRoute({
  method: "get", path: "/workflow/events", operationId: "listWorkflowEvents", summary: "Page the governed case event outbox", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: ?after=<event id>&limit=1..1000 → {events: [{id, run_id, type, payload, audit_id, created_at}]}",
  request: { query: z.object({ after: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(1000).optional() }) },
  responses: { 200: json(z.object({ events: z.array(Json) }), "Events"), ...errorResponses(400, 401, 403) },
});

/** The audit actor of a request: the hashed subject (audit rows hold no raw identity). */
export function actorOf(c: Context): string | undefined {
  const p = principalOf(c);
  return p ? hashSubject(p.subject) : undefined;
}

/** Registers the workflow routes. */
export function workflowRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  const w = memory.workflow;
  r.openapi(open, async (c) => {
    const out = await w.openRun(c.req.valid("json"), { actor: actorOf(c) });
    return out.reused ? c.json(out, 200) : c.json(out, 201);
  });
  r.openapi(get, async (c) => c.json(await w.getRun(parseRunId(c.req.valid("param").id), { piiRead: piiReadOf(c) }), 200));
  r.openapi(lifecycle, async (c) => c.json(await w.lifecycle(parseRunId(c.req.valid("param").id), c.req.valid("json"), { actor: actorOf(c) }), 200));
  r.openapi(statusRef, async (c) => c.json(await w.mintStatusRef(parseRunId(c.req.valid("param").id), c.req.valid("json"), { actor: actorOf(c) }), 200));
  r.openapi(reply, async (c) => c.json(await w.draftReply(parseRunId(c.req.valid("param").id), c.req.valid("json"), { actor: actorOf(c) }), 201));
  r.openapi(note, async (c) => {
    const b = c.req.valid("json");
    return c.json(await w.note(parseRunId(c.req.valid("param").id), b.text, { reask: b.reask === true, actor: actorOf(c) }), 201);
  });
  r.openapi(cases, async (c) => {
    const b = c.req.valid("json");
    return c.json(await w.applyCase(b.case, { origin: b.origin ?? "operator", actor: actorOf(c) }), 200);
  });
  r.openapi(mount, async (c) => {
    // The signed path (the gateway) claims its webhook-id against replays (SPEC §5 item 8); a bearer mount has none.
    const webhookId = c.get("webhookId");
    return c.json(await w.mountPlugin(c.req.valid("json"), { actor: actorOf(c), ...(webhookId ? { webhookId } : {}) }), 201);
  });
  r.openapi(events, async (c) => {
    const q = c.req.valid("query");
    return c.json({ events: await w.events({ after: q.after, limit: q.limit, piiRead: piiReadOf(c) }) }, 200);
  });
  app.route("/", r);
}
