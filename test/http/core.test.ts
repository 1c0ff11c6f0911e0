import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { VERSION } from "../../src/core/version.ts";
import { openTestMemory, openapiYaml, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

describe("HTTP core (SPEC §4.8, §7, §9)", () => {
  it("carries X-Api-Version on success, error, 404 and 413 responses", async () => {
    const responses = [
      await t.req("GET", "/health"),
      await t.req("POST", "/ingest", "{"),
      await t.req("GET", "/nowhere"),
      await t.req("POST", "/ingest", JSON.stringify({ title: "t", content: "x".repeat(1_100_000) })),
    ];
    for (const r of responses) expect(r.headers.get("x-api-version")).toBe(VERSION);
  });

  it("answers a body over 1 MiB with a bare 413 and no envelope", async () => {
    const res = await t.req("POST", "/ingest", JSON.stringify({ title: "t", content: "x".repeat(1_100_000) }));
    expect(res.status).toBe(413);
    expect(await res.text()).toBe("");
  });

  it("answers unknown paths with a probe-blind 404 envelope", async () => {
    const res = await t.req("GET", "/admin/secret");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not_found", message: "not found" } });
  });

  it("reports health and version consistently", async () => {
    expect(await (await t.req("GET", "/health")).json()).toEqual({ status: "ok", version: VERSION });
    expect((await (await t.req("GET", "/version")).json()).version).toBe(VERSION);
    expect(await (await t.req("GET", "/ready")).json()).toEqual({ ready: true });
  });

  it("answers /health with 503 {status: error, version, error} and /ready with 503 when the database is gone", async () => {
    await t.memory.close();
    const res = await t.req("GET", "/health");
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ status: "error", version: VERSION, error: "database unavailable" });
    const ready = await t.req("GET", "/ready");
    expect(ready.status).toBe(503);
    expect((await ready.json()).error.code).toBe("not_ready");
    // SPEC §7: a database failure on a write is 500 internal_error with a safe message (no path, no SQL).
    const write = await t.req("POST", "/ingest", { title: "t", content: "after close" });
    expect(write.status).toBe(500);
    expect(await write.json()).toEqual({ error: { code: "internal_error", message: "internal error", details: { request_id: expect.any(String) } } });
  });

  it("reports capacity and the durability posture on /health/db", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "x" });
    const body = await (await t.req("GET", "/health/db")).json();
    expect(body.capacity).toMatchObject({ docs: 1, max_docs: 50_000, max_db_mib: 2048, max_rss_mib: 512, status: "ok" });
    expect(typeof body.capacity.db_mib).toBe("number");
    expect(typeof body.capacity.rss_mib).toBe("number");
    expect(body.durability.journal_mode).toBe("wal");
    expect(typeof body.concurrency.wal_pages_pending).toBe("number");
  });

  it("counts docs on /stats", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "x" });
    expect((await (await t.req("GET", "/stats")).json()).docs).toBe(1);
  });

  it("sends Deprecation on the 0.9.x core routes and not on later ones", async () => {
    for (const p of ["/health", "/ready", "/stats", "/version", "/openapi.yaml"]) {
      expect((await t.req("GET", p)).headers.get("deprecation")).toBe('version="0.9.5"');
    }
    expect((await t.req("HEAD", "/health")).headers.get("deprecation")).toBe('version="0.9.5"');
    expect((await t.req("GET", "/domains")).headers.get("deprecation")).toBeNull();
    expect((await t.req("POST", "/ingest", { title: "t", content: "x" })).headers.get("deprecation")).toBeNull();
    expect((await t.req("GET", "/health/db")).headers.get("deprecation")).toBeNull();
  });

  it("serves the index and the operator page named in SPEC §4.8", async () => {
    expect(await (await t.req("GET", "/")).json()).toMatchObject({ name: "cairn", version: VERSION, openapi: "/openapi.yaml" });
    const page = await t.req("GET", "/app");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain(VERSION);
    expect(html).toContain('<main id="main"');
    // The shell is public and holds no data: its panel comes from a gated fragment (src/web/README.md).
    expect(html).toContain('data-src="/app/fragments/review"');
  });

  it("serves an OpenAPI 3.1 document listing every registered route", async () => {
    const res = await t.req("GET", "/openapi.yaml");
    expect(res.status).toBe(200);
    const doc = parse(await res.text());
    expect(doc.openapi).toBe("3.1.0");
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    // SPEC §9 item 6: every registered path appears, the web client's pages, assets and fragments included.
    const registered = t.app.routes
      .filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:([A-Za-z_]+)/g, "{$1}")}`);
    const missing = registered.filter((r) => !documented.has(r));
    expect(missing).toEqual([]);
    const stale = [...documented].filter((d) => !registered.includes(d));
    expect(stale).toEqual([]);
    expect(openapiYaml.length).toBeGreaterThan(0);
    // The public shells say why they need no credential; the fragments are gated like the API.
    const paths = doc.paths as Record<string, Record<string, Record<string, unknown>>>;
    expect(paths["/app"]!.get!.security).toEqual([]);
    expect(String(paths["/app"]!.get!["x-cairn-choice"])).toMatch(/bearer/);
    expect(paths["/app/fragments/review"]!.get!.security).toEqual([{ bearer: [] }]);
    expect(Object.keys((paths["/app/assets/app.js"]!.get!.responses as Record<string, { content: Record<string, unknown> }>)["200"]!.content)).toEqual(["text/javascript"]);
  });
});
