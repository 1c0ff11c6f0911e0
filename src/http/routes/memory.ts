/** Memory entry routes (SPEC §4.4), declared as schemas in code (issue 21). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { json, pathParam } from "../shapes.ts";

const del = createRoute({
  method: "delete", path: "/memory/{id}", operationId: "deleteMemory", tags: ["governance"], security: BEARER,
  summary: "Delete one entry (vector, lexical entry, owned relation refs nulled, tombstone)",
  // The id stays a string here: a non-numeric id is the domain's 400 `invalid_id` (SPEC §7 "non-numeric id on delete").
  request: { params: z.object({ id: pathParam("id", { type: "integer", description: "Non-numeric → 400 invalid_id (this project's code)" }) }) },
  responses: { 200: json(z.object({ deleted: z.literal(true) }), "{deleted: true}"), ...errorResponses(400, 401, 403, 404) },
});

/** Registers `DELETE /memory/{id}`. */
export function memoryRoutes(app: Hono, memory: Memory) {
  const r = apiRouter().openapi(del, async (c) => c.json(await memory.deleteMemory(c.req.valid("param").id), 200));
  app.route("/", r);
  return r;
}
