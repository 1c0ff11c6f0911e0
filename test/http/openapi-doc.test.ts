/**
 * The generated OpenAPI document (issue 21): served at /openapi.yaml, equal to
 * the committed openapi.yaml (`npm run openapi` regenerates it), with an
 * operationId, a summary, tags and security on every operation, the bearer
 * scheme, and exactly the SPEC §5 public routes marked `security: []`.
 * `npx @redocly/cli lint` runs in .ci/run.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { OpenAPIHono } from "@hono/zod-openapi";
import { PUBLIC_PAGES, PUBLIC_ROUTES } from "../../src/http/gates.ts";
import { apiRouter, BEARER, createRoute, z } from "../../src/http/api-router.ts";
import { openTestMemory, openapiYaml, type TestMemory } from "../_helpers/memory.ts";

type Op = { operationId?: string; summary?: string; tags?: string[]; security?: unknown[]; responses?: Record<string, unknown>; [k: string]: unknown };

describe("generated OpenAPI document", () => {
  let t: TestMemory;
  let served: string;
  let doc: { openapi: string; paths: Record<string, Record<string, Op>>; components: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    t = await openTestMemory();
    const res = await t.req("GET", "/openapi.yaml");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/yaml/);
    served = await res.text();
    doc = parse(served);
  });
  afterAll(() => t.close());

  it("is the committed openapi.yaml, byte for byte (run `npm run openapi` after changing a route)", () => {
    expect(served).toBe(openapiYaml);
  });

  it("gives every operation a unique operationId, a summary, tags, security and a 2xx response schema", () => {
    const ids = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const where = `${method.toUpperCase()} ${path}`;
        expect(op.operationId, where).toMatch(/^[a-zA-Z]+$/);
        expect(ids.has(op.operationId!), `${where} duplicate operationId`).toBe(false);
        ids.add(op.operationId!);
        expect(op.summary, where).toBeTruthy();
        expect(op.tags?.length, where).toBeGreaterThan(0);
        expect(Array.isArray(op.security), where).toBe(true);
        const ok = Object.entries(op.responses ?? {}).find(([s]) => s.startsWith("2"))?.[1] as { content?: Record<string, { schema?: unknown }> };
        // An operation that can never succeed (the claim promote route, SPEC §3) says so and declares no 2xx.
        if ((op as Record<string, unknown>)["x-cairn-never-succeeds"] === true) {
          expect(ok, `${where} declares x-cairn-never-succeeds and a 2xx`).toBeUndefined();
          continue;
        }
        expect(ok?.content && Object.values(ok.content)[0]?.schema, `${where} 2xx schema`).toBeTruthy();
      }
    }
    expect(ids.size).toBeGreaterThan(50);
  });

  it("declares the bearer scheme and marks exactly the SPEC §5 public routes security: []", () => {
    expect(doc.components.securitySchemes).toMatchObject({ bearer: { type: "http", scheme: "bearer" }, standardWebhooks: { type: "apiKey", in: "header", name: "webhook-signature" } });
    const open: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.security!.length === 0) open.push(`${method.toUpperCase()} ${path}`);
        // SPEC §5 item 8: the inbound channel webhooks are signed, not bearer-authenticated.
        else if (path.startsWith("/webhooks/channel/")) expect(op.security, path).toEqual([{ standardWebhooks: [] }]);
        // SPEC §5 item 10: the gateway mounts with the channel secret (it holds no service token); an operator uses a bearer.
        else if (path === "/workflow/plugins/mount") expect(op.security, path).toEqual([{ bearer: [] }, { standardWebhooks: [] }]);
        else expect(op.security, path).toEqual([{ bearer: [] }]);
      }
    }
    // SPEC §5's three public API routes, and the web client's page shells and assets (public by a recorded
    // choice, x-cairn-choice: a browser navigation cannot carry a bearer; they hold no data).
    expect(open.sort()).toEqual([...PUBLIC_ROUTES, ...PUBLIC_PAGES].map((k) => k.replace(/:([A-Za-z_]+)/g, "{$1}")).sort());
  });

  it("keeps the x-cairn-choice markers where the spec says 'not shown'", () => {
    const marked = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops).filter(([, o]) => o["x-cairn-choice"] !== undefined).map(([m]) => `${m.toUpperCase()} ${p}`));
    for (const r of ["GET /", "POST /ingest/batch", "GET /audit", "POST /ump/remember", "GET /graph/traverse", "POST /dsar", "GET /ops/authz/explain", "DELETE /quarantine/{id}"]) {
      expect(marked).toContain(r);
    }
  });

  it("merges the declarations of a feature router mounted with app.route('/', router)", async () => {
    // The same mounting a feature helper uses: the parent document lists the sub-router's route and its components.
    const parent = new OpenAPIHono();
    const sub = apiRouter().openapi(createRoute({
      method: "get", path: "/widgets/{id}", operationId: "getWidget", summary: "A widget", tags: ["widgets"], security: BEARER,
      request: { params: z.object({ id: z.string() }) },
      responses: { 200: { description: "ok", content: { "application/json": { schema: z.object({ id: z.string() }).openapi("Widget") } } } },
    }), (c) => c.json({ id: c.req.valid("param").id }, 200));
    parent.route("/", sub);
    const d = parent.getOpenAPI31Document({ openapi: "3.1.0", info: { title: "t", version: "1" } });
    expect(d.paths?.["/widgets/{id}"]?.get?.operationId).toBe("getWidget");
    expect(d.components?.schemas?.Widget).toBeDefined();
    expect(await (await parent.request("/widgets/7")).json()).toEqual({ id: "7" });
  });
});
