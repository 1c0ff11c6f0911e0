/**
 * Structured ingest routes (SPEC §4.2). Bodies are the domain's schemas (src/ingest/ingest-schema.ts): `/ingest`
 * reads its body by hand (several media types) and the domain parses it with `IngestBody`; `/ingest/batch` validates
 * with `IngestBatchBody` here, each item's refusal carrying `items[i]` and its index, as the domain would.
 */
import type { Hono } from "hono";
import { IngestBatchBody, IngestBody, IngestReply, type IngestInput } from "../../ingest/ingest-schema.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, refusalHook, z } from "../api-router.ts";
import { readJson } from "../read-json.ts";
import { docBody, json, jsonBody, ref, UmpBatch, UmpBatchResult, UmpRememberResult } from "../shapes.ts";
import { umpIngest } from "./ump-files.ts";

const ingest = createRoute({
  method: "post", path: "/ingest", operationId: "ingest", tags: ["ingest"], security: BEARER,
  summary: "Structured knowledge write (SPEC §4.2); with ?format=ump|ump-md, the UMP file binding import",
  request: {
    query: z.object({
      format: z.string().optional().openapi({
        enum: ["ump", "ump-md"],
        description: "Absent: the structured write. `ump`: body `{ump, records[]}` (also a JSON array, one record, or NDJSON).\n" +
          "`ump-md`: the body is the markdown projection (one front-matter block plus body per record).\n" +
          "Each record is processed on its own; a one-record batch answers with the plain remember reply (`{id, result}`) or that " +
          "record's error envelope (SPEC §4.2). A posture-carrying door: under review posture each record is filed as a proposal (`review` on its result).\n" +
          "`ump-md` front matter written as YAML is read within a budget: 400 frontmatter_too_large (details {limit, max}). A record breaking the text-field " +
          "rule is rejected on its own, naming `records[i].<field>`.",
      }),
    }),
    // Several media types and JSON forms (NDJSON under format=ump): documented here, read by the handler.
    body: docBody({
      "application/json": { oneOf: [ref("IngestRequest"), ref("UmpBatch")] },
      "text/markdown": { type: "string", description: "format=ump-md: the *.ump.md projection" },
    }),
  },
  responses: {
    200: json(z.union([IngestReply, UmpBatchResult, UmpRememberResult]), "created or duplicate (structured); the batch reply or the plain remember reply (format=ump|ump-md)"),
    413: { description: "Body over 1 MiB; bare status with no body (SPEC §7)" },
    507: json(z.object({ error: z.object({ code: z.string(), message: z.string() }) }), "Capacity guard refused the write; code capacity_exceeded (this project's code)"),
    ...errorResponses(400, 401, 403),
  },
});

const batch = createRoute({
  method: "post", path: "/ingest/batch", operationId: "ingestBatch", tags: ["ingest"], security: BEARER,
  summary: "Bulk structured write — up to 1,000 /ingest bodies in one transaction",
  "x-cairn-choice": "SPEC §4.2 shows single writes only. Every item is validated first; one bad item fails the request with that item's code and status, " +
    "its index in `details.index` and `items[i]` in the message, and nothing is written. Then all items commit in one transaction. Each item answers " +
    "with the /ingest reply shape; duplicates (also within the batch) cost no writes. An operator door like /ingest (never routed to review).",
  request: { body: jsonBody(IngestBatchBody) },
  responses: {
    200: json(z.object({ items: z.array(IngestReply), created: z.number().int(), duplicates: z.number().int() }), "per-item replies in request order, with counts"),
    413: { description: "Body over 1 MiB; bare status with no body (SPEC §7)" },
    ...errorResponses(400, 401, 403, 507),
  },
});

/** Registers `POST /ingest` and `POST /ingest/batch`. */
export function ingestRoutes(app: Hono, memory: Memory) {
  const r = apiRouter();
  r.openAPIRegistry.register("IngestRequest", IngestBody);
  r.openAPIRegistry.register("UmpBatch", UmpBatch);
  const routes = r
    // `?format=ump|ump-md` is the UMP file binding (SPEC §4.2); without it, the structured write (the domain parses
    // the body with IngestBody, so an untyped body is refused there with the same codes).
    .openapi(ingest, async (c) => ((await umpIngest(c, memory)) ?? c.json(await memory.ingest(await readJson(c) as IngestInput), 200)) as never)
    // This project's bulk door: many structured bodies, one transaction (see src/ingest/ingest-batch.ts).
    .openapi(batch, async (c) => c.json(await memory.ingestBatch(c.req.valid("json")), 200), refusalHook({ batchKey: "items" }));
  app.route("/", routes);
  return routes;
}
