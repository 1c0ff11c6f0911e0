/**
 * Recall routes (SPEC §4.1, §4.7): `POST /recall` and the deprecated
 * `GET /search` over the same pipeline, declared as schemas in code (issue 21).
 * Every body field is checked by the recall pipeline (query_empty,
 * limit_out_of_range, source_invalid, …), so the shape only documents them.
 */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, specError, z } from "../api-router.ts";
import { piiReadOf } from "../principal.ts";
import { AnyObject, json, jsonBody, q } from "../shapes.ts";

const choice = { "x-cairn-choice": true };
const f = (extra: Record<string, unknown>) => z.unknown().optional().openapi(extra);
// A body that is not an object has no query: the pipeline's own answer.
const RecallRequest = z
  .looseObject({
    query: f({ type: "string", description: "Required; 1 to 2,000 bytes (query_empty, query_too_long, query_rejected)" }),
    limit: f({ type: "integer", minimum: 1, maximum: 100, default: 5, description: "limit_out_of_range outside 1 to 100" }),
    domain: f({ type: "string" }),
    strict: f({ type: "boolean", default: false }),
    provenance: f({ type: "boolean", default: false }),
    source: f({ type: "string" }),
    sources: f({ type: "array", items: { type: "string" } }),
    since: f({ type: "string", description: "RFC 3339 or YYYY-MM-DD HH:MM:SS; malformed → no hits, never 400" }),
    lex: f({ type: "string", description: "terms, \"phrases\", -exclusions" }),
    vec: f({ type: "string" }),
    hyde: f({ type: "string", description: "beats vec" }),
    intent: f({ type: "string" }),
    trace: f({ type: "boolean", description: "records the decision path as an audit row; its id is returned as trace_id" }),
    graph: f({ type: "boolean", default: true }),
    at: f({ type: "string", format: "date-time", description: "historical recall: the store as of this time (body field, this project's placement)", ...choice }),
    include_decayed: f({ type: "boolean", default: false, description: "opt into decayed entries (expires_at past), served with decayed: true", ...choice }),
  }, { error: specError("query_empty", "query must not be empty") })
  .openapi("RecallRequest");

// SPEC §2.2; optional fields are omitted, never null.
const RecallHit = z
  .looseObject({
    id: z.number().int(), title: z.string().optional(), content: z.string(), score: z.number(), untrusted: z.boolean(), flagged: z.boolean(),
    domain: z.string().optional(), source: z.enum(["vector", "fts", "both", "graph"]).optional(), provenance: AnyObject.optional(),
    evidence: AnyObject.optional(), snippet: z.string().optional(), conflict: z.boolean().optional(),
    relevance: z.enum(["high", "medium", "low"]).optional(), decayed: z.boolean().optional(),
  })
  .openapi("RecallHit");
const RecallReply = z
  .looseObject({
    hits: z.array(RecallHit), domain: z.string().optional(), domainsSearched: z.array(z.string()).optional(), included_global: z.boolean().optional(),
    telemetry: AnyObject.optional(), trace_id: z.number().int().optional(), decision: z.string().optional(),
  })
  .openapi("RecallReply");
type Reply = z.infer<typeof RecallReply>;

const sourceParam = q("ingest kind (memory, markdown, structured, manual, vault) or leg (vector, fts, graph, both); unknown → 422");
const recall = createRoute({
  method: "post", path: "/recall", operationId: "recall", tags: ["recall"], security: BEARER, summary: "Deterministic hybrid recall (SPEC §4.1)",
  request: { query: z.object({ source: sourceParam }), body: jsonBody(RecallRequest) },
  responses: {
    200: json(RecallReply, "{hits: RecallHit[], domain, domainsSearched, included_global, telemetry?, trace_id?, decision?: low_confidence}"),
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
  responses: { 200: json(RecallReply, "Same as POST /recall"), ...errorResponses(400, 401, 403, 422, 503) },
});

/** Registers the recall routes. */
export function recallRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(recall, async (c) => c.json(await memory.recall(c.req.valid("json"), { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }) as Reply, 200))
    .openapi(search, async (c) => {
      const k = c.req.query("k");
      let limit: number | undefined;
      if (k !== undefined) {
        if (!/^[0-9]{1,3}$/.test(k)) throw new MemoryError("limit_out_of_range", "k must be an integer from 1 to 100", { min: 1, max: 100 });
        limit = Number(k);
      }
      const body: Record<string, unknown> = { query: c.req.query("q") ?? "" };
      if (limit !== undefined) body.limit = limit;
      const lex = c.req.query("lex");
      if (lex !== undefined) body.lex = lex;
      // SPEC §1 step 6: the graph leg is on for /search too; `graph=false` turns it off for one request.
      const graph = c.req.query("graph");
      if (graph === "false" || graph === "0") body.graph = false;
      else if (graph !== undefined && graph !== "" && graph !== "true" && graph !== "1") {
        throw new MemoryError("invalid_request", "graph must be true or false", { field: "graph" });
      }
      return c.json(await memory.recall(body, { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }) as Reply, 200);
    });
  app.route("/", r);
  return r;
}
