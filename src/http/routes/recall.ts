/** Recall routes (SPEC §4.1, §4.7): `POST /recall` and the deprecated `GET /search` over the same pipeline. */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { piiReadOf } from "../principal.ts";
import { readJson } from "../read-json.ts";

/** Registers the recall routes. */
export function recallRoutes(app: Hono, memory: Memory): void {
  app.post("/recall", async (c) => {
    const body = await readJson(c);
    return c.json(await memory.recall(body, { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }));
  });
  app.get("/search", async (c) => {
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
    return c.json(await memory.recall(body, { piiRead: piiReadOf(c), sourceParam: c.req.query("source") }));
  });
}
