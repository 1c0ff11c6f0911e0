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
  // SPEC §4.8 names `/app` without a shape: a static, script-free operator page linking the read surfaces.
  app.get("/app", (c) => c.html(APP_PAGE));
  app.get("/version", (c) => c.json({ version: VERSION, api: API_LABEL }));
  app.get("/ready", async (c) => {
    const r = await memory.ready();
    return r.ready ? c.json(r) : c.json({ error: { code: "not_ready", message: "not ready" } }, 503);
  });
  app.get("/stats", async (c) => c.json(await memory.stats()));
  app.get("/health/db", async (c) => c.json(await memory.healthDb()));
  app.get("/openapi.yaml", (c) => c.body(opts.openapiYaml, 200, { "Content-Type": "application/yaml; charset=utf-8" }));
}

const APP_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cairn ${VERSION}</title></head>
<body>
<h1>Cairn ${VERSION}</h1>
<p>Local-first, governed memory and decision store (${API_LABEL}).</p>
<ul>
<li><a href="/health/db">/health/db</a>: capacity, durability and posture</li>
<li><a href="/stats">/stats</a>: counts</li>
<li><a href="/domains">/domains</a>: domains with entry counts</li>
<li><a href="/audit/verify">/audit/verify</a>: audit chain check</li>
<li><a href="/openapi.yaml">/openapi.yaml</a>: every route</li>
</ul>
</body></html>
`;
