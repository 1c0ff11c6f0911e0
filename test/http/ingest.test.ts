import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { xxh3Hex } from "../../src/core/content-hash.ts";
import { createClient } from "@libsql/client";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

async function count(table: string): Promise<number> {
  const c = createClient({ url: `file:${t.dbPath}` });
  const rs = await c.execute(`SELECT COUNT(*) AS n FROM ${table}`);
  c.close();
  return Number(rs.rows[0].n);
}

async function errorOf(res: Response): Promise<{ status: number; code: string; details?: Record<string, unknown> }> {
  const body = await res.json() as { error: { code: string; details?: Record<string, unknown> } };
  return { status: res.status, code: body.error.code, details: body.error.details };
}

describe("POST /ingest", () => {
  it("creates a chunk in global with counts of processed items", async () => {
    const res = await t.req("POST", "/ingest", {
      title: "  Payments  ", content: "The ledger service settles payments nightly.",
      entities: [{ name: "Ledger", type: "service" }, { name: "Payments" }],
      relations: [{ from: "Ledger", to: "Payments", type: "handles" }],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ id: expect.any(Number), status: "created", domain: "global", entitiesAdded: 2, relationsAdded: 1 });
    const c = createClient({ url: `file:${t.dbPath}` });
    const row = (await c.execute("SELECT title, source, origin, confidence, content_hash FROM chunks")).rows[0];
    c.close();
    expect(row.title).toBe("Payments");
    expect(row.source).toBe("structured");
    expect(row.origin).toBe("imported");
    expect(row.confidence).toBe(1);
    expect(String(row.content_hash)).toMatch(/^[0-9a-f]{16}$/);
  });

  it("returns duplicate with the existing id, zero counts and no writes", async () => {
    const first = await (await t.req("POST", "/ingest", { title: "A", content: "same bytes" })).json();
    const before = { chunks: await count("chunks"), entities: await count("entities") };
    const dup = await (await t.req("POST", "/ingest", { title: "B", content: "same bytes", entities: [{ name: "New" }] })).json();
    expect(dup).toEqual({ id: first.id, status: "duplicate", domain: "global", entitiesAdded: 0, relationsAdded: 0 });
    expect({ chunks: await count("chunks"), entities: await count("entities") }).toEqual(before);
  });

  it("keeps content verbatim (not trimmed) and hashes it with XXH3-64", async () => {
    const content = "  padded\n";
    await t.req("POST", "/ingest", { title: "t", content });
    const c = createClient({ url: `file:${t.dbPath}` });
    const row = (await c.execute("SELECT content, content_hash FROM chunks")).rows[0];
    c.close();
    expect(row.content).toBe(content);
    // XXH3-64 (seed 0) of the UTF-8 bytes of the untrimmed content, 16 hex digits; the function itself is pinned to
    // the published xxHash vectors in test/core/content-hash.test.ts.
    expect(row.content_hash).toBe(await xxh3Hex(new TextEncoder().encode(content)));
    expect(row.content_hash).not.toBe(await xxh3Hex("padded"));
    expect(row.content_hash).toMatch(/^[0-9a-f]{16}$/);
  });

  it.each([
    [{ content: "x" }, "title_invalid"],
    [{ title: "   ", content: "x" }, "title_invalid"],
    [{ title: "x".repeat(501), content: "x" }, "title_invalid"],
    [{ title: 5, content: "x" }, "title_invalid"],
    [{ title: "t" }, "content_empty"],
    [{ title: "t", content: "" }, "content_empty"],
    [{ title: "t", content: "x", domain: "Bad Domain!" }, "domain_invalid"],
    [{ title: "t", content: "x", domain: "unregistered" }, "domain_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "" }] }, "name_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "bad/name" }] }, "name_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "n".repeat(101) }] }, "name_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "ok", type: "t".repeat(65) }] }, "entity_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "a" }, { name: "b" }], relations: [{ from: "a", to: "b", type: "Bad-Type" }] }, "relation_invalid"],
    [{ title: "t", content: "x", entities: [{ name: "a" }, { name: "b" }], relations: [{ from: "a", to: "b", type: "x".repeat(63) }] }, "relation_invalid"],
    [{ title: "t", content: "x", entities: Array.from({ length: 201 }, (_, i) => ({ name: `e${i}` })) }, "too_many_entities"],
    [{ title: "t", content: "x", relations: Array.from({ length: 201 }, () => ({ from: "a", to: "b", type: "r" })) }, "too_many_relations"],
    [{ title: "t", content: "x", origin_context: "elsewhere" }, "invalid_request"],
    [{ title: "t", content: 42 }, "invalid_request"],
    [{ title: "t", content: "x", entities: "nope" }, "invalid_request"],
  ])("rejects %j with 400 %s and writes nothing", async (body, code) => {
    const res = await t.req("POST", "/ingest", body);
    const e = await errorOf(res);
    expect(e.status).toBe(400);
    expect(e.code).toBe(code);
    expect(await count("chunks")).toBe(0);
    expect(await count("entities")).toBe(0);
  });

  it("names the field of a wrong-typed value", async () => {
    const e = await errorOf(await t.req("POST", "/ingest", { title: "t", content: "x", authority: "high" }));
    expect(e).toMatchObject({ status: 400, code: "invalid_request", details: { field: "authority" } });
  });

  it("rejects content over 1,000,000 bytes with content_too_large", async () => {
    const e = await errorOf(await t.req("POST", "/ingest", { title: "t", content: "é".repeat(500_001) }));
    expect(e).toMatchObject({ status: 400, code: "content_too_large" });
  });

  it("accepts content of exactly 1,000,000 bytes", async () => {
    const res = await t.req("POST", "/ingest", { title: "t", content: "a".repeat(1_000_000) });
    expect(res.status).toBe(200);
  });

  it("fails the whole write when a relation names an unknown entity", async () => {
    const e = await errorOf(await t.req("POST", "/ingest", {
      title: "t", content: "x", entities: [{ name: "Known" }], relations: [{ from: "Known", to: "Ghost", type: "haunts" }],
    }));
    expect(e).toMatchObject({ status: 400, code: "relation_invalid" });
    expect(await count("chunks")).toBe(0);
    expect(await count("entities")).toBe(0);
  });

  it("lets a relation reference an entity already in the domain", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "one", entities: [{ name: "Alpha" }] });
    const res = await t.req("POST", "/ingest", { title: "t", content: "two", entities: [{ name: "Beta" }], relations: [{ from: "beta", to: "ALPHA", type: "depends_on" }] });
    expect((await res.json()).relationsAdded).toBe(1);
  });

  it("stores origin channel for origin_context channel", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "c", origin_context: "channel" });
    const c = createClient({ url: `file:${t.dbPath}` });
    expect((await c.execute("SELECT origin FROM chunks")).rows[0].origin).toBe("channel");
    c.close();
  });

  it("applies the 0.9 discount to a connector or web source string", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "from the web", source: "https://example.org/page" });
    await t.req("POST", "/ingest", { title: "t", content: "from a person", source: "notebook" });
    const c = createClient({ url: `file:${t.dbPath}` });
    const rows = (await c.execute("SELECT content, confidence FROM chunks ORDER BY id")).rows;
    c.close();
    expect(rows.map((r) => r.confidence)).toEqual([0.9, 1]);
  });

  it("ignores unknown request fields", async () => {
    const res = await t.req("POST", "/ingest", { title: "t", content: "x", surprise: { nested: true } });
    expect(res.status).toBe(200);
  });

  it("answers malformed JSON with a 400 envelope", async () => {
    const e = await errorOf(await t.req("POST", "/ingest", "{not json"));
    expect(e).toMatchObject({ status: 400, code: "invalid_json" });
  });

  it("writes into a registered forced domain after trim and lowercase", async () => {
    await t.req("POST", "/domains", { name: "ops" });
    const body = await (await t.req("POST", "/ingest", { title: "t", content: "x", domain: "  OPS " })).json();
    expect(body.domain).toBe("ops");
  });

  it("refuses writes beyond the capacity envelope with 507", async () => {
    await t.close();
    t = await openTestMemory({ CAIRN_MAX_DOCS: "1" });
    expect((await t.req("POST", "/ingest", { title: "t", content: "one" })).status).toBe(200);
    const res = await t.req("POST", "/ingest", { title: "t", content: "two" });
    expect(res.status).toBe(507);
    expect(await count("chunks")).toBe(1);
  });
});
