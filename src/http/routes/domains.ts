/** Domain routes (SPEC §4.5). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { readJson } from "../read-json.ts";
import { requireObject } from "../../ingest/fields.ts";

/** Registers the domain routes. */
export function domainRoutes(app: Hono, memory: Memory): void {
  app.get("/domains", async (c) => c.json({ domains: await memory.domains.list() }));
  app.post("/domains", async (c) => {
    const body = requireObject(await readJson(c));
    const { created, domain } = await memory.domains.create(body.name);
    return c.json(domain, created ? 201 : 200);
  });
  app.delete("/domains/:name", async (c) => c.json(await memory.domains.drop(c.req.param("name"), c.req.query("confirm"))));
  app.post("/domains/:name/vacuum", async (c) => c.json(await memory.domains.vacuum(c.req.param("name"))));
}
