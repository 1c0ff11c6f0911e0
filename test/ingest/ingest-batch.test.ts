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

  it("records one chained audit row per created item, in item order, and the chain verifies", async () => {
    await t.req("POST", "/ingest", { title: "first", content: "a single write before the batch" });
    const items = Array.from({ length: 230 }, (_, i) => ({ title: `note ${i}`, content: `batch note number ${i} about topic ${i % 7}` }));
    items.push({ title: "dup", content: "batch note number 3 about topic 3" });
    const body = await (await t.req("POST", "/ingest/batch", { items })).json();
    expect(body.created).toBe(230);
    const page = await (await t.req("GET", "/audit?action=ingest&limit=1000")).json();
    const rows = page.rows as { id: number; target: string; prev_hash: string; hash: string; detail: { content_hash: string } }[];
    expect(rows).toHaveLength(231);
    const batchRows = rows.slice(1);
    expect(batchRows.map((r) => r.target)).toEqual(body.items.slice(0, 230).map((i: { id: number }) => `chunk:${i.id}`));
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].id).toBe(rows[i - 1].id + 1);
      expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    }
    expect(await (await t.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true });
    // Ids are distinct and increasing in item order (one multi-row insert per 200 rows).
    const ids = body.items.slice(0, 230).map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    expect(new Set(ids).size).toBe(230);
  });

  it("links each batch item to the domain's entities its text names", async () => {
    await t.req("POST", "/ingest", { title: "Ops", content: "Ledger depends on Granite.", entities: [{ name: "Ledger" }, { name: "Granite" }] });
    const body = await (await t.req("POST", "/ingest/batch", {
      items: [
        { title: "one", content: "Granite was patched on Monday." },
        { title: "two", content: "Nothing relevant here at all." },
        { title: "three", content: "Ledger and Granite both restarted." },
      ],
    })).json();
    const linked = async (id: number) => (await t.memory.db.client.execute({
      sql: "SELECT e.display_name AS n FROM entity_chunks l JOIN entities e ON e.id = l.entity_id WHERE l.chunk_id = ? ORDER BY e.name", args: [id],
    })).rows.map((r) => String(r.n));
    expect(await linked(body.items[0].id)).toEqual(["Granite"]);
    expect(await linked(body.items[1].id)).toEqual([]);
    expect(await linked(body.items[2].id)).toEqual(["Granite", "Ledger"]);
  });
});
