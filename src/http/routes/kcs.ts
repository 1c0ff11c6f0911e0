/**
 * KCS knowledge-base routes (SPEC §4.11 `POST /kcs/translate`; issue 17),
 * declared as schemas in code. SPEC §4.11 leaves bodies "not shown", so each
 * shape is this project's choice (`x-cairn-choice`); validation with spec
 * codes lives in `src/kb/` (shared with the CLI). Reads are gated `read`,
 * filing a translation `workflow` (src/http/gates.ts).
 */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { TranslateBody } from "../../kb/translate.ts";
import { actorOf } from "./workflow.ts";

const json = <T extends z.ZodType>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const TAGS = ["kcs"];

const Translation = z.object({
  article_id: z.number().int(), locale: z.string(), based_revision: z.number().int(), current_revision: z.number().int(),
  stale: z.boolean().openapi({ description: "true when the article has a revision newer than based_revision" }),
  title: z.string(), body: z.string().optional(), proposal_id: z.number().int(), approved_at: z.string(),
}).openapi("KcsTranslation");
const Summary = z.object({
  id: z.number().int(), domain: z.string(), locale: z.string(), case_ref: z.string().optional(), revision: z.number().int(), title: z.string(),
  status: z.literal("draft"), created_at: z.string(), updated_at: z.string(),
  translations: z.array(z.object({ locale: z.string(), based_revision: z.number().int(), stale: z.boolean() })),
}).openapi("KcsArticleSummary");
const Article = Summary.omit({ translations: true }).extend({
  body: z.string(), content_sha256: z.string(),
  revisions: z.array(z.object({ revision: z.number().int(), title: z.string(), proposal_id: z.number().int().optional(), chunk_id: z.number().int().optional(), created_at: z.string() })),
  translations: z.array(Translation),
}).openapi("KcsArticle");
const IdParam = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "1" }) });

const translate = createRoute({
  method: "post", path: "/kcs/translate", operationId: "kcsTranslate", summary: "File a human translation of a KCS article for review", tags: TAGS, security: BEARER,
  "x-cairn-choice": "body {article_id, locale (BCP-47-ish), title, body, based_revision? (default the current revision)}; 201 a pending proposal (door kcs:translate) approved at /proposals/{id}/approve; 404 unknown article, 400 locale_invalid",
  request: { body: { required: true, content: { "application/json": { schema: TranslateBody } } } },
  responses: {
    201: json(z.object({ proposal_id: z.number().int(), status: z.literal("pending"), article_id: z.number().int(), locale: z.string(), based_revision: z.number().int(), verdict: z.string() }), "Filed for review"),
    ...errorResponses(400, 401, 403, 404),
  },
});
const list = createRoute({
  method: "get", path: "/kcs/articles", operationId: "listKcsArticles", summary: "List KCS articles with their current revision and translation states", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: ?domain=&after=<id>&limit=1..500 → {articles, next_after?}",
  request: { query: z.object({ domain: z.string().optional(), after: z.coerce.number().int().min(0).optional(), limit: z.coerce.number().int().min(1).max(500).optional() }) },
  responses: { 200: json(z.object({ articles: z.array(Summary), next_after: z.number().int().optional() }), "Articles"), ...errorResponses(400, 401, 403) },
});
const get = createRoute({
  method: "get", path: "/kcs/articles/{id}", operationId: "getKcsArticle", summary: "A KCS article: current revision, revision list and translations (stale flagged)", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route",
  request: { params: IdParam },
  responses: { 200: json(Article, "The article"), ...errorResponses(400, 401, 403, 404) },
});
const translations = createRoute({
  method: "get", path: "/kcs/translations", operationId: "listKcsTranslations", summary: "List translations; ?stale=true lists those awaiting review after a new revision", tags: TAGS, security: BEARER,
  "x-cairn-choice": "added route: ?stale=true|false&article_id=",
  request: { query: z.object({ stale: z.enum(["true", "false"]).optional(), article_id: z.coerce.number().int().min(1).optional() }) },
  responses: { 200: json(z.object({ translations: z.array(Translation) }), "Translations"), ...errorResponses(400, 401, 403) },
});

function articleId(raw: string): number {
  const n = /^[1-9][0-9]{0,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n)) throw new MemoryError("invalid_request", "article id must be a positive integer", { field: "id" });
  return n;
}

/** Registers the KCS routes. */
export function kcsRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(translate, async (c) => c.json(await memory.kb.translate(c.req.valid("json"), { actor: actorOf(c) }), 201))
    .openapi(list, async (c) => c.json(await memory.kb.listArticles(c.req.valid("query")), 200))
    .openapi(get, async (c) => c.json(await memory.kb.getArticle(articleId(c.req.valid("param").id)), 200))
    .openapi(translations, async (c) => {
      const q = c.req.valid("query");
      return c.json({ translations: await memory.kb.listTranslations({ stale: q.stale === undefined ? undefined : q.stale === "true", articleId: q.article_id }) }, 200);
    });
  app.route("/", r);
  return r;
}
