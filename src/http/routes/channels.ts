/**
 * Channel webhooks (SPEC §4.11, §5 items 8 and 10, §6), declared as schemas
 * in code. Both routes are gated `signed-webhook`: the guard verifies the
 * Standard-Webhooks signature (±300 s timestamp) and hands the verified
 * `webhook-id` on; the workflow service refuses a replayed id in the same
 * transaction as the change. Bodies are this project's choice
 * (`x-cairn-choice`); the inbound projection is the gateway's
 * `{envelope: {conversation_ref, text, external_id}}` (SPEC §4.13).
 */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { InboundBody, type InboundInput } from "../../workflow/workflow-schema.ts";
import { readJson } from "../read-json.ts";
import { apiRouter, createRoute, errorResponses, z } from "../api-router.ts";

const KindParam = z.object({ kind: z.string().openapi({ param: { name: "kind", in: "path" }, example: "signal", description: "signal, telegram or whatsapp (enabled by its bridge config file)" }) });
const WEBHOOK = [{ standardWebhooks: [] as string[] }];
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });

const inbound = createRoute({
  method: "post", path: "/webhooks/channel/{kind}", operationId: "channelInbound", summary: "Inbound channel envelope (Standard-Webhooks signed)", tags: ["channels"], security: WEBHOOK,
  "x-cairn-choice": "200 {status: noted (case note on the bound run) | proposed (capture proposal) | duplicate (external_id seen), kind, message_id, …}; 409 webhook_replayed",
  request: {
    params: KindParam,
    // Read by hand: the service checks the kind (404) before the body (InboundBody).
    body: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/ChannelInbound" } } } },
  },
  responses: { 200: json(z.object({ status: z.enum(["noted", "proposed", "duplicate"]), kind: z.string(), message_id: z.number().int() }), "Filed"), ...errorResponses(400, 401, 403, 404, 409) },
});
const drain = createRoute({
  method: "post", path: "/webhooks/channel/{kind}/drain", operationId: "channelDrain", summary: "Claim approved channel/out envelopes (marks them delivered)", tags: ["channels"], security: WEBHOOK,
  "x-cairn-choice": "body {limit?: 1..100, default 20} → {kind, envelopes: [{id, run_id, conversation_ref, text, approved_at, delivered_at}], redelivered?: true when the same webhook-id is retried}",
  // The body ({limit?}) is read by the handler, not a validator: an empty body (what a bare crank sends) is a valid drain.
  description: "Body (optional, JSON): `{limit?: 1..100}` (default 20). An empty body drains with the default limit.",
  request: { params: KindParam },
  responses: {
    200: json(z.object({ kind: z.string(), envelopes: z.array(z.object({ id: z.number().int(), run_id: z.number().int(), conversation_ref: z.string(), text: z.string() })), redelivered: z.literal(true).optional() }), "Claimed"),
    ...errorResponses(400, 401, 403, 404, 409),
  },
});

/** Registers the channel webhook routes. */
export function channelRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  r.openAPIRegistry.register("ChannelInbound", InboundBody);
  r.openapi(inbound, async (c) => c.json(await memory.workflow.inbound(c.req.valid("param").kind, await readJson(c) as InboundInput, { webhookId: c.get("webhookId") }), 200));
  r.openapi(drain, async (c) => {
    const text = await c.req.text();
    let b: unknown = {};
    try {
      b = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      b = null;
    }
    return c.json(await memory.workflow.drain(c.req.valid("param").kind, b, { webhookId: c.get("webhookId") }), 200);
  });
  app.route("/", r);
}
