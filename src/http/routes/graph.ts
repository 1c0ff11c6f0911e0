/** Graph routes (SPEC §4.6): entity, relations between two entities, bounded traversal, relationship history. */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";

/** Registers the graph routes. */
export function graphRoutes(app: Hono, memory: Memory): void {
  app.get("/graph/entity/:name", async (c) => c.json(await memory.graph.entity(c.req.param("name"), c.req.query("domain"))));
  app.get("/graph/relations", async (c) =>
    c.json(await memory.graph.relations(c.req.query("from"), c.req.query("to"), c.req.query("domain"))));
  app.get("/graph/traverse", async (c) =>
    c.json(await memory.graph.traverse({
      start: c.req.query("start"), max_depth: c.req.query("max_depth"), explain: c.req.query("explain"), kind: c.req.query("kind"),
      at: c.req.query("at"), domain: c.req.query("domain"), direction: c.req.query("direction"),
    })));
  // SPEC §4.6: admin-gated (gate row in src/http/gates.ts) and audited (the service writes the audit row).
  app.get("/graph/relationships/:id/history", async (c) => c.json(await memory.graph.history(c.req.param("id"))));
}
