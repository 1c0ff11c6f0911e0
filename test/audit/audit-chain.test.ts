import { createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { chainHash, GENESIS_HASH } from "../../src/audit/chain-hash.ts";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory(); });
afterEach(async () => { await t.close(); });

describe("hash-chained audit log", () => {
  it("writes one row per ingest and delete, none for a duplicate", async () => {
    const a = await (await t.req("POST", "/ingest", { title: "a", content: "first" })).json();
    await t.req("POST", "/ingest", { title: "a", content: "first" });
    await t.req("DELETE", `/memory/${a.id}`);
    const { rows } = await (await t.req("GET", "/audit")).json();
    expect(rows.map((r: { action: string; target: string }) => [r.action, r.target])).toEqual([["ingest", `chunk:${a.id}`], ["delete", `chunk:${a.id}`]]);
    expect(rows[0].prev_hash).toBe(GENESIS_HASH);
    expect(rows[1].prev_hash).toBe(rows[0].hash);
  });

  it("hashes as documented: SHA-256 of the previous hash then the JCS row", async () => {
    await t.req("POST", "/ingest", { title: "a", content: "doc" });
    const { rows: [r] } = await (await t.req("GET", "/audit")).json();
    // independent recomputation with keys in JCS order written out by hand
    const jcs = JSON.stringify({ action: r.action, actor: null, detail: r.detail, id: r.id, target: r.target, ts: r.ts });
    const sortedDetail = JSON.stringify(Object.fromEntries(Object.entries(r.detail).sort(([a], [b]) => (a < b ? -1 : 1))));
    const body = jcs.replace(JSON.stringify(r.detail), sortedDetail);
    expect(bytesToHex(sha256(new TextEncoder().encode(GENESIS_HASH + body)))).toBe(r.hash);
    expect(chainHash(GENESIS_HASH, { id: r.id, ts: r.ts, action: r.action, target: r.target, detail: r.detail })).toBe(r.hash);
  });

  it("verifies clean, then names the first row edited directly in SQLite", async () => {
    for (let i = 0; i < 5; i++) await t.req("POST", "/ingest", { title: "t", content: `entry ${i}` });
    expect(await (await t.req("GET", "/audit/verify")).json()).toMatchObject({ ok: true, rows: 5 });
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_update");
    await c.execute(`UPDATE audit_log SET detail = '{"domain":"global","forged":true}' WHERE id = 3`);
    c.close();
    expect(await (await t.req("GET", "/audit/verify")).json()).toEqual({ ok: false, rows: 3, first_broken: { id: 3, reason: "hash_mismatch" } });
  });

  it("names the link after a row removed directly in SQLite", async () => {
    for (let i = 0; i < 4; i++) await t.req("POST", "/ingest", { title: "t", content: `entry ${i}` });
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_delete");
    await c.execute("DELETE FROM audit_log WHERE id = 2");
    c.close();
    expect((await (await t.req("GET", "/audit/verify")).json()).first_broken).toEqual({ id: 3, reason: "link_mismatch" });
  });

  it("refuses updates and deletes at the database level", async () => {
    await t.req("POST", "/ingest", { title: "t", content: "x" });
    const c = createClient({ url: `file:${t.dbPath}` });
    await expect(c.execute("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
    await expect(c.execute("DELETE FROM audit_log")).rejects.toThrow(/append-only/);
    c.close();
  });

  it("pages with after/limit and next_after", async () => {
    for (let i = 0; i < 5; i++) await t.req("POST", "/ingest", { title: "t", content: `p ${i}` });
    const p1 = await (await t.req("GET", "/audit?limit=2")).json();
    expect(p1.rows.map((r: { id: number }) => r.id)).toEqual([1, 2]);
    expect(p1.next_after).toBe(2);
    const p3 = await (await t.req("GET", "/audit?after=4&limit=2")).json();
    expect(p3.rows.map((r: { id: number }) => r.id)).toEqual([5]);
    expect(p3.next_after).toBeUndefined();
    expect((await t.req("GET", "/audit?limit=abc")).status).toBe(400);
  });

  it("rolls the audit row back with a failed write", async () => {
    const bad = await t.req("POST", "/ingest", { title: "t", content: "x", relations: [{ from: "a", to: "b", type: "r" }] });
    expect(bad.status).toBe(400);
    expect((await (await t.req("GET", "/audit")).json()).rows).toEqual([]);
  });
});
