/**
 * `POST /ingest/conversation` (issue 24; this project's addition to SPEC
 * §4.2, marked `x-cairn-choice`): a session of dialogue turns, one chunk per
 * turn. The body is `ConversationBody` (src/conversation/conversation-schema.ts),
 * which the domain parses with too, so every binding answers the same codes.
 */
import type { Hono } from "hono";
import { ConversationBody } from "../../conversation/conversation-schema.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";

const TurnResult = z
  .object({
    id: z.number().int().optional(),
    status: z.enum(["created", "duplicate", "skipped", "proposed"]),
    turn_id: z.string().optional(),
    proposal_id: z.number().int().optional(),
    flagged: z.literal(true).optional(),
    reason: z.string().optional(),
  })
  .openapi("ConversationTurnResult");

const ConversationReply = z
  .object({
    session: z.string(),
    domain: z.string(),
    turns: z.array(TurnResult),
    created: z.number().int(),
    duplicate: z.number().int(),
    skipped: z.number().int(),
    proposed: z.number().int(),
  })
  .openapi("ConversationIngestResult", { "x-cairn-choice": "each turn's chunk id and status in turn order, then counts" });

const ingest = createRoute({
  method: "post", path: "/ingest/conversation", operationId: "ingestConversation", tags: ["ingest"], security: BEARER,
  summary: "Ingest a conversation session: one chunk per turn, with neighbouring turns, speaker label and session date",
  "x-cairn-choice": "this project's conversation door (issue 24); hygiene, duplicates, the screen and the memory door's write posture apply per turn",
  request: { body: { required: true, content: { "application/json": { schema: ConversationBody } } } },
  responses: {
    200: { description: "Each turn's outcome in turn order", content: { "application/json": { schema: ConversationReply } } },
    ...errorResponses(400, 401, 403, 404, 413, 415, 507),
  },
});

/** Registers `POST /ingest/conversation`. */
export function conversationRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  // The turns field is documented by reference (its values are checked by the domain validator), so the schema is registered by name.
  r.openapi(ingest, async (c) => c.json(await memory.ingestConversation(c.req.valid("json")), 200));
  app.route("/", r);
}
