/**
 * `POST /ingest/conversation` (issue 24; this project's addition to SPEC
 * §4.2, marked `x-cairn-choice`): a session of dialogue turns, one chunk per
 * turn. Declared as schemas in code (src/http/api-router.ts); field rules
 * live in the domain validator (src/conversation/ingest-conversation.ts), so
 * HTTP, MCP and the CLI answer the same codes.
 */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";

const Turn = z
  .object({
    speaker: z.unknown().optional().openapi({ type: "string", description: "Required; who spoke (1 to 200 bytes). Stored as the turn's speaker label.", example: "John" }),
    text: z.unknown().optional().openapi({ type: "string", description: "Required; the turn's words (1 to 1,000,000 bytes, verbatim)", example: "All you need is a gamepad and some practice." }),
    id: z.unknown().optional().openapi({ type: "string", description: "The client's own turn id, echoed as `turn_id`", example: "D1:3" }),
    time: z.unknown().optional().openapi({
      type: "string", description: "When the turn was said (ISO-8601 date and time), kept as `meta.conversation.time`; its relative dates resolve against this day",
      example: "2023-05-08T13:56:00Z",
    }),
  })
  .openapi("ConversationTurn");

const ConversationBody = z
  .object({
    session: z
      .object({
        id: z.unknown().optional().openapi({ type: "string", description: "Required; the session's id", example: "2023-05-08-standup" }),
        date: z.unknown().optional().openapi({
          type: "string", description: "When the session took place: ISO-8601, or written out (`1:56 pm on 8 May, 2023`). Relative dates in turns resolve against it.",
          example: "2023-05-08",
        }),
        title: z.unknown().optional().openapi({ type: "string", description: "The session's title (at most 500 characters), written on every turn's session line", example: "Sourdough starter help" }),
      })
      .passthrough()
      .optional(),
    turns: z.unknown().optional().openapi({ type: "array", items: { $ref: "#/components/schemas/ConversationTurn" }, description: "Required; 1 to 1,000 turns in order" }),
    domain: z.unknown().optional().openapi({ type: "string", description: "Forced domain; omitted resolves to `global`" }),
  })
  .passthrough()
  .openapi("ConversationIngest", { "x-cairn-choice": "SPEC §4.2 has no conversation door: {session: {id, date?, title?}, turns: [{speaker, text, id?, time?}], domain?}" });

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
  r.openAPIRegistry.register("ConversationTurn", Turn);
  r.openapi(ingest, async (c) => c.json(await memory.ingestConversation(c.req.valid("json")), 200));
  app.route("/", r);
}
