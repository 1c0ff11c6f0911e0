/**
 * `POST /ingest/conversation` (this project's door; SPEC §4.2 has none) as a schema that validates and types:
 * `{session: {id, date?, title?}, turns: [{speaker, text, id?, time?}], domain?}`. A turn's text follows the content rules
 * (`content_empty`, `content_too_large`); other faults answer `invalid_request` naming the field.
 */
import { z } from "zod";
import { body, byteLength, isAbsent, nullAsAbsent, specError, specErrorBy } from "../core/schema.ts";
import { domainNameField } from "../domains/domain-name.ts";
import { Content } from "../ingest/ingest-schema.ts";

/** Most turns one session may carry. */
export const MAX_TURNS = 1000;

const badSessionId = specError("invalid_request", "session.id must be a non-empty string of at most 200 characters", { field: "session.id" });
const sessionId = z.union([z.string(), z.number()], { error: badSessionId })
  .transform(String).refine((id) => id.trim() !== "" && id.length <= 200, { error: badSessionId })
  .meta({ description: "The session's id", example: "2023-05-08-standup" });

const speakerError = specError("invalid_request", "{at} must be a non-empty string", { field: "{at}" });
const speaker = z.string({
  error: specErrorBy((iss) => (isAbsent(iss) ? speakerError : specError("invalid_request", "speaker must be a string", { field: "speaker" }))),
})
  .refine((s) => byteLength(s) <= 200, { error: specError("invalid_request", "speaker must be at most 200 bytes", { field: "speaker", max: 200 }), abort: true })
  .transform((s) => s.trim())
  .refine((s) => s !== "", { error: speakerError })
  .meta({ description: "Who spoke", example: "Caroline" });

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const badTime = specError("invalid_request", "{at} must be an ISO-8601 date and time", { field: "{at}" });

const badTurnId = specError("invalid_request", "{at} must be a string or number of at most 200 characters", { field: "{at}" });

/** One turn. */
export const ConversationTurn = body({
  speaker,
  text: Content.meta({ description: "The turn's words (1 to 1,000,000 bytes, verbatim)", example: "All you need is a gamepad and some practice." }),
  id: z.union([z.string(), z.number()], { error: badTurnId }).transform(String).refine((id) => id.length <= 200, { error: badTurnId }).optional()
    .meta({ description: "The client's own turn id, echoed as `turn_id`", example: "D1:3" }),
  time: nullAsAbsent(z.string({ error: badTime }).refine((t) => t.length <= 64 && ISO_TIME.test(t) && !Number.isNaN(Date.parse(t)), { error: badTime })
    .transform((t) => new Date(Date.parse(t)).toISOString()))
    .meta({
      type: "string", description: "When the turn was said (ISO-8601 date and time), kept as `meta.conversation.time`; the turn's relative dates resolve against its day",
      example: "2023-05-08T13:56:00Z",
    }),
}, { error: specError("invalid_request", "{at} must be an object", { field: "{at}" }), meta: { id: "ConversationTurn" } });

/** The body with at most `maxTurns` turns (the HTTP door: `MAX_TURNS`; the chat importer: whole conversations). */
function conversationBody(maxTurns: number, component: boolean) {
  const bad = specError("invalid_request", `turns must be an array of 1 to ${maxTurns} turns`, { field: "turns", min: 1, max: maxTurns });
  return body({
  session: z.object({
    id: sessionId,
    date: nullAsAbsent(z.string({ error: specError("invalid_request", "date must be a string", { field: "date" }) })
      .refine((d) => byteLength(d) <= 64, { error: specError("invalid_request", "date must be at most 64 bytes", { field: "date", max: 64 }) })
      .transform((d) => d.trim()))
      .meta({ type: "string", description: "When the session took place: ISO-8601, or written out (`1:56 pm on 8 May, 2023`). Relative dates in turns resolve against it.", example: "2023-05-08" }),
    title: nullAsAbsent(z.string({ error: specError("invalid_request", "title must be a string", { field: "session.title" }) })
      .refine((t) => byteLength(t) <= 500, { error: specError("invalid_request", "session.title must be at most 500 bytes", { field: "session.title", max: 500 }) })
      .transform((t) => t.replace(/\s+/g, " ").trim()))
      .meta({ type: "string", description: "The session's title (at most 500 bytes), written on every turn's session line", example: "Sourdough starter help" }),
  }, { error: specErrorBy((iss) => (isAbsent(iss) ? specError("invalid_request", "session is required", { field: "session" }) : specError("invalid_request", "request body must be a JSON object"))) }),
  turns: z.array(ConversationTurn, { error: bad }).min(1, { error: bad }).max(maxTurns, { error: bad })
    .meta({ description: `1 to ${maxTurns} turns in order` }),
  domain: domainNameField("domain").optional().meta({ description: "Forced domain; omitted resolves to `global`" }),
}, component ? { meta: { id: "ConversationIngest", "x-cairn-choice": "SPEC §4.2 has no conversation door: {session: {id, date?, title?}, turns: [{speaker, text, id?, time?}], domain?}" } } : {});
}

/** `POST /ingest/conversation`. */
export const ConversationBody = conversationBody(MAX_TURNS, true);

/** Most turns of one conversation the chat importer passes (a whole exported conversation is one session). */
export const MAX_IMPORT_TURNS = 100_000;

/** The same body with up to `MAX_IMPORT_TURNS` turns (the importer's internal call, never an HTTP body). */
export const ImportConversationBody = conversationBody(MAX_IMPORT_TURNS, false);

/** What `POST /ingest/conversation` takes. */
export type ConversationInput = z.input<typeof ConversationBody>;
