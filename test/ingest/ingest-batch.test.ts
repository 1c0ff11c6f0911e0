/**
 * `POST /ingest/batch` (this project's bulk door, openapi.yaml): many
 * structured bodies, validated first and written in one transaction.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

const docs = async () => (await (await t.req("GET", "/health/db")).json()).capacity.docs as number;

describe("POST /ingest/batch", () => {
  it("writes every item and answers per item in order, like /ingest", async () => {
    await t.req("POST", "/domains", { name: "ops" });
    const res = await t.req("POST", "/ingest/batch", {
      items: [
        { title: "Ledger", content: "The ledger settles card payments nightly.", domain: "ops" },
        { title: "Garden", content: "Tomatoes need deep watering twice a week." },
        { title: "Ledger again", content: "The ledger settles card payments nightly.", domain: "ops" },
      ],
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.created).toBe(2);
    expect(body.duplicates).toBe(1);
    expect(body.items.map((i: { status: string }) => i.status)).toEqual(["created", "created", "duplicate"]);
    expect(body.items[0]).toMatchObject({ status: "created", domain: "ops" });
    expect(body.items[2].id).toBe(body.items[0].id);
    expect(body.items[1].domain).toBe("global");
    expect(await docs()).toBe(2);
    // Recall sees the batch at once, and a later single /ingest of the same text is a duplicate of it.
    const r = await (await t.req("POST", "/recall", { query: "ledger card payments" })).json();
    expect(r.hits[0].id).toBe(body.items[0].id);
    const again = await (await t.req("POST", "/ingest", { title: "Garden", content: "Tomatoes need deep watering twice a week." })).json();
    expect(again).toMatchObject({ id: body.items[1].id, status: "duplicate" });
  });

  it("writes entities and relations of each item into the graph", async () => {
    const res = await t.req("POST", "/ingest/batch", {
      items: [{ title: "Ops", content: "Ledger depends on Granite.", entities: [{ name: "Ledger" }, { name: "Granite" }], relations: [{ from: "Ledger", type: "depends_on", to: "Granite" }] }],
    });
    expect(res.status).toBe(200);
    expect((await res.json()).items[0]).toMatchObject({ status: "created", entitiesAdded: 2, relationsAdded: 1 });
    const res2 = await t.req("GET", "/graph/entity/Ledger");
    expect(res2.status).toBe(200);
    expect(JSON.stringify(await res2.json())).toContain("depends_on");
  });

  it("rejects the whole batch when one item is invalid, naming it, and writes nothing", async () => {
    await t.req("POST", "/ingest", { title: "old", content: "already here" });
    const res = await t.req("POST", "/ingest/batch", { items: [{ title: "one", content: "fine one" }, { title: "bad", content: "" }, { title: "two", content: "fine two" }] });
    expect(res.status).toBe(400);
    const err = (await res.json()).error;
    expect(err.message).toContain("items[1]");
    expect(err.details.index).toBe(1);
    expect(await docs()).toBe(1);
    const r = await (await t.req("POST", "/recall", { query: "fine one" })).json();
    expect(r.hits.every((h: { content: string }) => !h.content.includes("fine one"))).toBe(true);
  });

  it.each([
    [{}, "items"],
    [{ items: [] }, "items"],
    [{ items: "no" }, "items"],
    [{ items: Array.from({ length: 1001 }, (_, i) => ({ title: "n", content: `n${i}` })) }, "items"],
  ])("answers 400 invalid_request for %#", async (body, field) => {
    const res = await t.req("POST", "/ingest/batch", body);
    expect(res.status).toBe(400);
    const err = (await res.json()).error;
    expect(err.code).toBe("invalid_request");
    expect(err.details.field).toBe(field);
    expect(await docs()).toBe(0);
  });

  it("keeps an unregistered domain's item from being written (domain_invalid with its index)", async () => {
    const res = await t.req("POST", "/ingest/batch", { items: [{ title: "a", content: "a" }, { title: "b", content: "b", domain: "nowhere" }] });
    expect(res.status).toBe(400);
    const err = (await res.json()).error;
    expect(err.code).toBe("domain_invalid");
    expect(err.details.index).toBe(1);
    expect(await docs()).toBe(0);
  });
});
