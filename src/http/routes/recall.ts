/**
 * Recall routes (SPEC §4.1, §4.7): `POST /recall` and the deprecated
 * `GET /search` over the same pipeline. The body is `RecallBody`
 * (src/recall/recall-schema.ts), the schema the recall pipeline itself parses
 * with, so the route validates and types with the domain's codes
 * (query_empty, limit_out_of_range, source_invalid, …).
 */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { RecallBody, RecallReplySchema, type RecallInput } from "../../recall/recall-schema.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { piiReadOf } from "../principal.ts";
import { json, jsonBody, q } from "../shapes.ts";

const choice = { "x-cairn-choice": true };
const SOURCE_HELP = "ingest kind (memory, markdown, structured, manual, vault) or leg (vector, fts, graph, both); unknown → 422";
const sourceParam = q(SOURCE_HELP);
// The request body is not a named component: openapi-typescript makes a defaulted property of a component schema
// required (it cannot tell request from response components), but keeps it optional inline under requestBody.
// `?source=` is documented as a plain parameter, so a typed client need not pass an empty query object.
const recall = createRoute({
  method: "post", path: "/recall", operationId: "recall", tags: ["recall"], security: BEARER, summary: "Deterministic hybrid recall (SPEC §4.1)",
  parameters: [{ name: "source", in: "query", required: false, description: `Same as the body's source, and wins over it: ${SOURCE_HELP}`, schema: { type: "string" } }],
  request: { body: jsonBody(RecallBody) },
  responses: {
    200: json(RecallReplySchema, "{hits: RecallHit[], domain, domainsSearched, included_global, telemetry?, trace_id?, decision?: low_confidence}"),
    ...errorResponses(400, 401, 403, 422, 503),
  },
});

const search = createRoute({
  method: "get", path: "/search", operationId: "search", tags: ["recall"], security: BEARER, deprecated: true,
  summary: "Deprecated; use POST /recall. Same pipeline and reply.",
  request: {
    query: z.object({
      q: q("The query (query_empty when missing)"),
      k: q("1 to 100 (limit_out_of_range)", { type: "integer", minimum: 1, maximum: 100 }),
      lex: q(),
      graph: q("false turns the graph leg off for this request (SPEC §1 step 6)", { type: "boolean", default: true, ...choice }),
      source: sourceParam,
    }),
  },
  responses: { 200: json(RecallReplySchema, "Same as POST /recall"), ...errorResponses(400, 401, 403, 422, 503) },
});

/** Registers the recall routes. */
export function recallRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(recall, async (c) => c.json(await memory.recall(c.req.valid("json"), { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }), 200))
    .openapi(search, async (c) => {
      const k = c.req.query("k");
      let limit: number | undefined;
      if (k !== undefined) {
        if (!/^[0-9]{1,3}$/.test(k)) throw new MemoryError("limit_out_of_range", "k must be an integer from 1 to 100", { min: 1, max: 100 });
        limit = Number(k);
      }
      const body: RecallInput = { query: c.req.query("q") ?? "" };
      if (limit !== undefined) body.limit = limit;
      const lex = c.req.query("lex");
      if (lex !== undefined) body.lex = lex;
      // SPEC §1 step 6: the graph leg is on for /search too; `graph=false` turns it off for one request.
      const graph = c.req.query("graph");
      if (graph === "false" || graph === "0") body.graph = false;
      else if (graph !== undefined && graph !== "" && graph !== "true" && graph !== "1") {
        throw new MemoryError("invalid_request", "graph must be true or false", { field: "graph" });
      }
      return c.json(await memory.recall(body, { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }), 200);
    });
  app.route("/", r);
  return r;
}
