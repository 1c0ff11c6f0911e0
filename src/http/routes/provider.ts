/**
 * The opt-in model-provider lane's routes (SPEC §1 item 3, §4.11; issue 17),
 * declared as schemas in code. Both are governed-workflow routes (gate
 * `workflow`); their output is never memory: a KCS draft lands as a pending
 * capture proposal a human approves at `/proposals/{id}/approve`, and a
 * translation suggestion is returned for a human to submit to
 * `POST /kcs/translate`. Shapes are this project's choice (`x-cairn-choice`).
 */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { parseRunId } from "../../workflow/deps.ts";
import { SuggestBody, type SuggestInput } from "../../provider/provider-service.ts";
import { readJson } from "../read-json.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";

const TAGS = ["provider"];
const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const Usage = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() }).openapi("ProviderUsage");
const FAILS = "503 provider_unavailable (unreachable, refused by the egress guard, or no reply within 15 s); 502 provider_failed (error status, redirect, malformed reply or no usage block); 409 provider_disabled when CAIRN_PROVIDER_URL is unset. Nothing is filed on any failure.";

const draft = createRoute({
  method: "post", path: "/workflow/runs/{id}/kcs-draft", operationId: "draftKcsArticle", summary: "Draft a KCS article from a closed case with the model provider (files a pending capture proposal)", tags: TAGS, security: BEARER,
  "x-cairn-choice": `added route, no body: reads the closed_solved run's title and unflagged notes (redacted, as a reader without pii:read sees them), prompts the provider, files the reply as a pending capture proposal (origin model, source = case_ref, door ${"/workflow/runs/{id}/kcs-draft"}) → 201 {proposal_id, status: pending, run_id, case_ref, provider, model, usage}; 409 run_not_closed. ${FAILS}`,
  request: { params: z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "1" }) }) },
  responses: {
    201: json(z.object({
      proposal_id: z.number().int(), status: z.literal("pending"), duplicate: z.literal(true).optional(), run_id: z.number().int(), case_ref: z.string(),
      provider: z.string(), model: z.string(), usage: Usage,
    }), "Filed for review"),
    ...errorResponses(400, 401, 403, 404, 409, 502, 503),
  },
});
const suggest = createRoute({
  method: "post", path: "/kcs/translate/suggest", operationId: "suggestKcsTranslation", summary: "Suggest a translation with the model provider (returned, not stored)", tags: TAGS, security: BEARER,
  "x-cairn-choice": `added route: body {text (1..100,000 characters), locale (BCP 47), article_id?} → 200 {suggestion: {locale, text, article_id?}, origin: model, submit_to: /kcs/translate, provider, model, usage}; nothing is stored: a human edits and submits it to POST /kcs/translate, whose approval writes the locale row. 400 locale_invalid. ${FAILS}`,
  // Read by hand: a disabled lane answers 409 provider_disabled before the body is checked (SuggestBody).
  request: { body: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/KcsSuggestRequest" } } } } },
  responses: {
    200: json(z.object({
      suggestion: z.object({ locale: z.string(), text: z.string(), article_id: z.union([z.string(), z.number().int()]).optional() }),
      origin: z.literal("model"), submit_to: z.literal("/kcs/translate"), provider: z.string(), model: z.string(), usage: Usage,
    }), "A suggestion"),
    ...errorResponses(400, 401, 403, 409, 415, 502, 503),
  },
});

/** Registers the provider lane's routes. */
export function providerRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  r.openapi(draft, async (c) => c.json(await memory.provider.draftKcs(parseRunId(c.req.valid("param").id)), 201));
  r.openAPIRegistry.register("KcsSuggestRequest", SuggestBody);
  r.openapi(suggest, async (c) => c.json(await memory.provider.suggestTranslation(await readJson(c) as SuggestInput), 200));
  app.route("/", r);
}
