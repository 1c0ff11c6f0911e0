/**
 * Core operational routes (SPEC §4.8, §9): index, health, version, ready,
 * stats, health/db and the OpenAPI document generated from these declarations
 * (issue 21: schemas as code).
 */
import type { Hono } from "hono";
import { API_LABEL, VERSION } from "../../core/version.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { AnyObject, json, RATE_LIMITED } from "../shapes.ts";

const choice = { "x-cairn-choice": true } as const;
const Index = z.object({ name: z.string(), version: z.string(), api: z.string(), openapi: z.string() }).openapi("ServiceIndex");
const Health = z.object({ status: z.string().openapi({ enum: ["ok", "error"] }), version: z.string(), error: z.string().optional() }).openapi("Health");
const Version = z.object({ version: z.string(), api: z.string() }).openapi("Version");

const index = createRoute({
  method: "get", path: "/", operationId: "getIndex", tags: ["core"], security: BEARER, summary: "Service index (this project's shape)", ...choice,
  responses: { 200: json(Index, "{name, version, api, openapi}"), ...errorResponses(401, 403) },
});
const health = createRoute({
  method: "get", path: "/health", operationId: "getHealth", tags: ["core"], security: [],
  summary: "Liveness, {status, version}; deprecated-set header per SPEC §9.4",
  responses: { 200: json(Health, "{status: ok, version}"), 503: json(Health, "{status: error, version, error}"), ...RATE_LIMITED },
});
const version = createRoute({
  method: "get", path: "/version", operationId: "getVersion", tags: ["core"], security: BEARER, summary: "Server version (this project's shape {version, api})", ...choice,
  responses: { 200: json(Version, "{version, api}"), ...errorResponses(401, 403) },
});
const ready = createRoute({
  method: "get", path: "/ready", operationId: "getReady", tags: ["core"], security: BEARER, summary: "Readiness (this project's shape {ready})", ...choice,
  responses: { 200: json(z.object({ ready: z.boolean() }), "{ready: true}"), ...errorResponses(401, 403, 503) },
});
const stats = createRoute({
  method: "get", path: "/stats", operationId: "getStats", tags: ["core"], security: BEARER,
  summary: "Counts (this project's shape {docs, entities, relations, tombstones, db_mib, rss_mib})", ...choice,
  responses: {
    200: json(z.object({ docs: z.number().int(), entities: z.number().int(), relations: z.number().int(), tombstones: z.number().int(), db_mib: z.number(), rss_mib: z.number() }).openapi("Stats"), "Counts"),
    ...errorResponses(401, 403),
  },
});
const healthDb = createRoute({
  method: "get", path: "/health/db", operationId: "getHealthDb", tags: ["core"], security: BEARER,
  summary: "Capacity, durability, concurrency, pool and classifier posture",
  description: "{status, version, schema_stamp, capacity{docs,max_docs,db_mib,max_db_mib,rss_mib,max_rss_mib,status}, durability{journal_mode,synchronous,backend}, concurrency{wal_pages_pending}, pool, ...}",
  responses: { 200: json(AnyObject.openapi("HealthDb"), "Posture"), ...errorResponses(401, 403) },
});
const openapi = createRoute({
  method: "get", path: "/openapi.yaml", operationId: "getOpenApi", tags: ["core"], security: BEARER,
  summary: "This document (generated from the route declarations)",
  responses: { 200: { description: "OpenAPI 3.1 YAML", content: { "application/yaml": { schema: z.string() } } }, ...errorResponses(401, 403) },
});

/** Registers the core routes; `openapiYaml` renders the document of the whole app (generated on first request). */
export function coreRoutes(app: Hono, memory: Memory, openapiYaml: () => string) {
  const r = apiRouter()
    .openapi(index, (c) => c.json({ name: "cairn", version: VERSION, api: API_LABEL, openapi: "/openapi.yaml" }, 200))
    .openapi(health, async (c) => {
      const h = await memory.health();
      return h.status === "ok" ? c.json(h, 200) : c.json(h, 503);
    })
    // SPEC §4.3, §4.8 `/app`: the operator web client is registered by src/web/routes.tsx.
    .openapi(version, (c) => c.json({ version: VERSION, api: API_LABEL }, 200))
    .openapi(ready, async (c) => {
      const rd = await memory.ready();
      return rd.ready ? c.json(rd, 200) : c.json({ error: { code: "not_ready", message: "not ready" } }, 503);
    })
    .openapi(stats, async (c) => c.json(await memory.stats() as z.infer<typeof stats.responses[200]["content"]["application/json"]["schema"]>, 200))
    .openapi(healthDb, async (c) => c.json(await memory.healthDb(), 200))
    .openapi(openapi, (c) => c.body(openapiYaml(), 200, { "Content-Type": "application/yaml; charset=utf-8" }));
  app.route("/", r);
  return r;
}
