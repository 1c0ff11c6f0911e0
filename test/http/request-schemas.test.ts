/**
 * One schema per request body, used by the route and by the domain: a bad body gets the same SPEC §7 refusal —
 * code, message, details, status — over HTTP and from the library (`memory.*`, which MCP and the CLI call), unknown
 * fields are ignored (SPEC §4), a `null` is absent where it always was and refused where it always was, an array
 * item's refusal names its path and index, and a bad batch item writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isMemoryError } from "../../src/core/errors.ts";
import { toErrorResponse } from "../../src/http/status.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

const ING = { title: "Deploy windows", content: "Deploys happen on Tuesday mornings." };

describe("request bodies validated by one schema", () => {
  let t: TestMemory;
  beforeAll(async () => {
    t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }); // lexical recall is enough to see a stored entry
  });
  afterAll(() => t.close());

  async function overHttp(path: string, body: unknown) {
    const res = await t.req("POST", path, body);
    return { status: res.status, body: await res.json() as { error?: { code: string; message: string; details?: Record<string, unknown> } } };
  }
  /** The refusal a library call throws, rendered as the HTTP binding renders any MemoryError. */
  async function inLibrary(call: () => Promise<unknown>) {
    const e = await Promise.resolve().then(call).then(() => undefined, (x: unknown) => x);
    if (!isMemoryError(e)) throw new Error(`expected a MemoryError, got ${String(e)}`);
    return toErrorResponse(e);
  }

  const cases: [string, string, Record<string, unknown>, string, (m: TestMemory["memory"], b: never) => Promise<unknown>][] = [
    ["a wrong-typed limit", "/recall", { query: "deploys", limit: "3" }, "limit_out_of_range", (m, b) => m.recall(b)],
    ["a query that is a number", "/recall", { query: 42 }, "invalid_request", (m, b) => m.recall(b)],
    ["an unknown source", "/recall", { query: "deploys", source: "bogus" }, "source_invalid", (m, b) => m.recall(b)],
    ["a number as a title", "/ingest", { ...ING, title: 42 }, "title_invalid", (m, b) => m.ingest(b)],
    ["content over the limit", "/ingest", { ...ING, content: "é".repeat(500_001) }, "content_too_large", (m, b) => m.ingest(b)],
    ["a bad entity name", "/ingest", { ...ING, entities: [{ name: "ok" }, { name: "bad!" }] }, "name_invalid", (m, b) => m.ingest(b)],
    ["an inverted relation window", "/ingest", {
      ...ING, entities: [{ name: "a" }, { name: "b" }],
      relations: [{ from: "a", to: "b", type: "uses", valid_at: "2024-02-01T00:00:00Z", invalid_at: "2024-01-01T00:00:00Z" }],
    }, "relation_invalid", (m, b) => m.ingest(b)],
    ["201 entities", "/ingest", { ...ING, entities: Array.from({ length: 201 }, (_, i) => ({ name: `e${i}` })) }, "too_many_entities", (m, b) => m.ingest(b)],
    ["a proposal kind", "/ingest/proposal", { content: "x", kind: "other" }, "invalid_request", (m, b) => m.review.propose(b)],
    ["a markdown domain", "/ingest/markdown", { ...ING, domain: "Not A Domain!" }, "domain_invalid", (m, b) => m.ingestMarkdown(b)],
    ["a purge with both ids and owner", "/purge", { ids: [1], owner: "o" }, "invalid_request", (m, b) => m.erasure.purge(b)],
  ];

  for (const [what, path, body, code, call] of cases) {
    it(`${what} gets the same ${code} refusal over HTTP and from the library`, async () => {
      const http = await overHttp(path, body);
      const lib = await inLibrary(() => call(t.memory, body as never));
      expect(http.body.error?.code).toBe(code);
      expect(http).toEqual(lib);
    });
  }

  it("names an array item's path and index", async () => {
    const r = await overHttp("/ingest", { ...ING, entities: [{ name: "ok" }, { name: "bad!" }] });
    expect(r.body.error).toMatchObject({ code: "name_invalid", details: { field: "entities[1].name", index: 1, min: 1, max: 100 } });
  });

  it("refuses a bad batch item with its code, items[i] and its index, and writes nothing", async () => {
    const before = (await t.memory.stats()).docs;
    const r = await overHttp("/ingest/batch", { items: [{ title: "First", content: "first body" }, { ...ING, title: "" }] });
    expect(r.status).toBe(400);
    expect(r.body.error?.code).toBe("title_invalid");
    expect(r.body.error?.message).toMatch(/^items\[1\]: /);
    expect(r.body.error?.details).toMatchObject({ index: 1 });
    expect((await t.memory.stats()).docs).toBe(before);
    const lib = await inLibrary(() => t.memory.ingestBatch({ items: [{ title: "First", content: "first body" }, { ...ING, title: "" }] }));
    expect(r).toEqual(lib);
  });

  it("ignores unknown request fields (SPEC §4)", async () => {
    const put = await t.req("POST", "/ingest", { ...ING, domain: "global", colour: "blue", nested: { x: 1 } });
    expect(put.status).toBe(200);
    const got = await t.req("POST", "/recall", { query: "when do deploys happen", limt: 3 });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { hits: { title?: string }[] }).hits.map((h) => h.title)).toContain("Deploy windows");
  });

  it("reads null as absent where the validators always did, and refuses it where they refused it", async () => {
    expect((await t.req("POST", "/recall", { query: "deploys", limit: null, domain: null, source: null })).status).toBe(200);
    expect((await t.req("POST", "/ingest", { ...ING, source: null, region: null })).status).toBe(200);
    const dom = await overHttp("/ingest", { ...ING, domain: null });
    expect(dom.body.error?.code).toBe("domain_invalid");
    const auth = await overHttp("/ingest", { ...ING, authority: null });
    expect(auth.body.error).toMatchObject({ code: "invalid_request", details: { field: "authority" } });
  });
});
