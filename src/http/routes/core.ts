/** Core operational routes (SPEC §4.8, §9): health, version, ready, stats, health/db, openapi. */
import type { Hono } from "hono";
import { API_LABEL, VERSION } from "../../core/version.ts";
import type { Memory } from "../../memory.ts";
import type { AppOptions } from "../options.ts";

/** Registers the core routes. */
export function coreRoutes(app: Hono, memory: Memory, opts: AppOptions): void {
  app.get("/", (c) => c.json({ name: "cairn", version: VERSION, api: API_LABEL, openapi: "/openapi.yaml" }));
  app.get("/health", async (c) => {
    const h = await memory.health();
    return c.json(h, h.status === "ok" ? 200 : 503);
  });
  // SPEC §4.3, §4.8 `/app`: the operator web client is registered by src/web/routes.tsx.
  app.get("/version", (c) => c.json({ version: VERSION, api: API_LABEL }));
  app.get("/ready", async (c) => {
    const r = await memory.ready();
    return r.ready ? c.json(r) : c.json({ error: { code: "not_ready", message: "not ready" } }, 503);
  });
  app.get("/stats", async (c) => c.json(await memory.stats()));
  app.get("/health/db", async (c) => c.json(await memory.healthDb()));
  app.get("/openapi.yaml", (c) => c.body(opts.openapiYaml, 200, { "Content-Type": "application/yaml; charset=utf-8" }));
}
