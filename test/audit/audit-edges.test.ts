import { createClient } from "@libsql/client";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GENESIS_HASH } from "../../src/audit/chain-hash.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

// Issue 27 (mutation testing): what a client reads from the audit log and its verification, at the edges.
let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

type Row = { id: number; ts: string; action: string; actor?: string; target?: string; detail: Record<string, unknown>; prev_hash: string; hash: string };
const rowsOf = async (q = "") => (await (await t.req("GET", `/audit${q}`)).json()).rows as Row[];
const verify = async () => (await t.req("GET", "/audit/verify")).json();

describe("audit verification result", () => {
  it("reports no head for an empty log, and the last row's hash as the head otherwise", async () => {
    expect(await verify()).toEqual({ ok: true, rows: 0 });
    await t.req("POST", "/ingest", { title: "a", content: "one" });
    await t.req("POST", "/ingest", { title: "b", content: "two" });
    const rows = await rowsOf();
    expect(await verify()).toEqual({ ok: true, rows: 2, head: rows[1].hash });
  });

  it("names a row whose detail is no longer JSON as unreadable", async () => {
    for (let i = 0; i < 3; i++) await t.req("POST", "/ingest", { title: "t", content: `entry ${i}` });
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_update");
    await c.execute("UPDATE audit_log SET detail = '{not json' WHERE id = 2");
    c.close();
    expect(await verify()).toEqual({ ok: false, rows: 2, first_broken: { id: 2, reason: "unreadable" } });
  });

  it("chains rows recorded with an actor and without detail, and hashes the actor", async () => {
    const rec = await t.memory.audit.record({ action: "export", actor: "alice", target: "domain:global" });
    await t.memory.audit.record({ action: "refused" });
    const rows = await rowsOf();
    expect(rows.map((r) => [r.id, r.action, r.actor, r.target, r.detail])).toEqual([
      [1, "export", "alice", "domain:global", {}],
      [2, "refused", undefined, undefined, {}],
    ]);
    expect(rec).toEqual({ id: 1, hash: rows[0].hash });
    const jcs = JSON.stringify({ action: "export", actor: "alice", detail: {}, id: 1, target: "domain:global", ts: rows[0].ts });
    expect(bytesToHex(sha256(new TextEncoder().encode(GENESIS_HASH + jcs)))).toBe(rows[0].hash);
    expect(rows[1].prev_hash).toBe(rows[0].hash);
    expect(await verify()).toEqual({ ok: true, rows: 2, head: rows[1].hash });
  });

  it("chains a batch's rows in order, each linked to the one before, after earlier rows", async () => {
    await t.req("POST", "/ingest", { title: "first", content: "before the batch" });
    const res = await t.req("POST", "/ingest/batch", { items: [1, 2, 3].map((i) => ({ title: `b${i}`, content: `batch item ${i}` })) });
    expect(res.status).toBe(200);
    const ids = (await res.json()).items.map((i: { id: number }) => i.id);
    await t.req("POST", "/ingest", { title: "last", content: "after the batch" });
    const rows = await rowsOf();
    expect(rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(rows.slice(1, 4).map((r) => r.target)).toEqual(ids.map((id: number) => `chunk:${id}`));
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
    expect(await verify()).toEqual({ ok: true, rows: 5, head: rows[4].hash });
  });
});

describe("audit paging through the service", () => {
  it("clamps the page size to 1..1000 and filters by action", async () => {
    for (let i = 0; i < 3; i++) await t.req("POST", "/ingest", { title: "t", content: `row ${i}` });
    const a = await (await t.req("POST", "/ingest", { title: "t", content: "gone" })).json();
    await t.req("DELETE", `/memory/${a.id}`);
    const one = await t.memory.audit.list({ limit: 0 });
    expect(one.rows.map((r) => r.id)).toEqual([1]);
    expect(one.next_after).toBe(1);
    const all = await t.memory.audit.list({ limit: 5000 });
    expect(all.rows.map((r) => r.id)).toEqual([1, 2, 3, 4, 5]);
    expect(all.next_after).toBeUndefined();
    expect((await t.memory.audit.list({})).rows).toHaveLength(5);
    expect((await t.memory.audit.list({ action: "delete" })).rows.map((r) => [r.id, r.target])).toEqual([[5, `chunk:${a.id}`]]);
    expect((await rowsOf("?action=delete")).map((r) => r.id)).toEqual([5]);
    expect((await t.memory.audit.list({ after: 3, limit: 1 })).rows.map((r) => r.id)).toEqual([4]);
  });
});
