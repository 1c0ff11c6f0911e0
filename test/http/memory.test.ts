import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "@libsql/client";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

describe("DELETE /memory/{id} (SPEC §4.4)", () => {
  it("deletes, records a tombstone, nulls owned relation refs and then answers 404", async () => {
    const { id } = await (await t.req("POST", "/ingest", {
      title: "t", content: "x", entities: [{ name: "A" }, { name: "B" }], relations: [{ from: "A", to: "B", type: "r" }],
    })).json();
    const res = await t.req("DELETE", `/memory/${id}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ deleted: true });
    const c = createClient({ url: `file:${t.dbPath}` });
    expect(Number((await c.execute("SELECT COUNT(*) n FROM chunks")).rows[0].n)).toBe(0);
    const tomb = (await c.execute("SELECT chunk_id, reason FROM tombstones")).rows;
    expect(tomb.map((r) => [Number(r.chunk_id), r.reason])).toEqual([[id, "delete"]]);
    const rel = (await c.execute("SELECT chunk_id FROM relations")).rows;
    expect(rel.length).toBe(1);
    expect(rel[0].chunk_id).toBeNull();
    c.close();
    const again = await t.req("DELETE", `/memory/${id}`);
    expect(again.status).toBe(404);
    expect((await again.json()).error.code).toBe("not_found");
  });

  it("answers 400 for a non-numeric id", async () => {
    for (const id of ["abc", "1.5", "-3", "1e3"]) {
      const res = await t.req("DELETE", `/memory/${id}`);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toEqual({ code: "invalid_id", message: "id must be a numeric chunk id", details: { field: "id" } });
    }
  });
});
