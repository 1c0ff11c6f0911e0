/**
 * Multi-database mode (issue 20, SPEC §2.5, §4.5; docs/scale-out.md "One database per domain"): real libSQL files, one per domain
 * beside the global one, booted with CAIRN_MULTI_DB=true through the real composition root and HTTP app.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

const MULTI = { CAIRN_MULTI_DB: "true" };
let open: TestMemory[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});
const boot = async (env: Record<string, string> = MULTI, dir?: string) => {
  const t = await openTestMemory(env, {}, dir);
  open.push(t);
  return t;
};
const json = async (r: Promise<Response> | Response) => (await r).json();

async function rowsIn(path: string, sql: string): Promise<number> {
  const c = createClient({ url: `file:${path}`, intMode: "number" });
  try {
    return Number((await c.execute(sql)).rows[0][0]);
  } finally {
    c.close();
  }
}

async function seedTwoDomains(t: TestMemory): Promise<Record<string, number>> {
  for (const name of ["ops", "legal"]) expect((await t.req("POST", "/domains", { name })).status).toBe(201);
  const ids: Record<string, number> = {};
  const docs: [string, string, string, Record<string, unknown>][] = [
    ["ledger", "ops", "The ledger service settles card payments nightly at 02:00 UTC.", {
      entities: [{ name: "Ledger", type: "service" }, { name: "Payments" }], relations: [{ from: "ledger", to: "payments", type: "settles" }],
    }],
    ["oncall", "ops", "The payments on-call rotation changes every Monday.", {}],
    ["contract", "legal", "The supplier contract renews every March unless cancelled in writing.", { entities: [{ name: "Supplier" }] }],
    ["garden", "global", "Tomatoes need deep watering twice a week in summer.", {}],
  ];
  for (const [key, domain, content, extra] of docs) {
    const res = await t.req("POST", "/ingest", { title: key, content, domain, ...extra });
    const body = await res.json();
    expect(body).toMatchObject({ status: "created" });
    ids[key] = body.id;
  }
  return ids;
}

describe("CAIRN_MULTI_DB=true on the embedded database (SPEC §2.5, §4.5)", () => {
  it("is refused at boot over a libSQL server, with the reason", () => {
    expect(() => parseConfig({ CAIRN_MULTI_DB: "true", CAIRN_DB_URL: "http://127.0.0.1:8080" })).toThrow(/embedded database file/);
    expect(parseConfig({ CAIRN_MULTI_DB: "true" }).multiDb).toBe(true);
  });

  it("keeps each domain in its own file, lists per-domain counts, and drop deletes the file", async () => {
    const t = await boot();
    const ids = await seedTwoDomains(t);
    const ops = join(t.dir, "domains", "ops.db");
    const legal = join(t.dir, "domains", "legal.db");
    expect(existsSync(ops) && existsSync(legal)).toBe(true);
    // The rows are in the domain files, not in the global database.
    expect(await rowsIn(ops, "SELECT COUNT(*) FROM chunks")).toBe(2);
    expect(await rowsIn(legal, "SELECT COUNT(*) FROM chunks")).toBe(1);
    expect(await rowsIn(t.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain <> 'global'")).toBe(0);
    expect(await rowsIn(ops, "SELECT COUNT(*) FROM entities")).toBe(2);
    // Ids stay unique across databases.
    expect(new Set(Object.values(ids)).size).toBe(4);

    const list = (await json(t.req("GET", "/domains"))).domains;
    expect(list).toEqual([
      { name: "global", entries: 1, entities: 0, relations: 0, multi_db: true },
      { name: "legal", entries: 1, entities: 1, relations: 0, multi_db: true },
      { name: "ops", entries: 2, entities: 2, relations: 1, multi_db: true },
    ]);
    expect((await t.req("POST", "/domains/ops/vacuum")).status).toBe(200);
    // Snapshots are not built across databases yet: refused, never a partial file.
    const snap = await t.req("GET", "/domains/ops/export");
    expect(snap.status).toBe(409);
    expect((await snap.json()).error.code).toBe("multi_db_unsupported");

    const drop = await t.req("DELETE", "/domains/ops?confirm=ops");
    expect(drop.status).toBe(200);
    expect(await drop.json()).toMatchObject({ deleted: true, entries_removed: 2 });
    expect(existsSync(ops)).toBe(false);
    expect(existsSync(legal)).toBe(true);
    expect((await json(t.req("GET", "/domains"))).domains.map((d: { name: string }) => d.name)).toEqual(["global", "legal"]);
    const hits = (await json(t.req("POST", "/recall", { query: "ledger payments nightly", limit: 10 }))).hits;
    expect(hits.map((h: { id: number }) => h.id)).not.toContain(ids.ledger);
    expect(await json(t.req("GET", "/audit/verify"))).toMatchObject({ ok: true });
  });

  it("recalls across and within domains, deletes by id, serves the graph, and the one audit chain verifies", async () => {
    const t = await boot();
    const ids = await seedTwoDomains(t);
    const across = (await json(t.req("POST", "/recall", { query: "supplier contract renews March", limit: 5 }))).hits;
    expect(across[0].id).toBe(ids.contract);
    const within = (await json(t.req("POST", "/recall", { query: "payments", domain: "ops", limit: 10 }))).hits;
    expect(within.map((h: { id: number }) => h.id)).toEqual(expect.arrayContaining([ids.ledger, ids.oncall]));
    // Within ops (global mixed in, SPEC §4.1), the legal domain's chunk is never served.
    expect(within.map((h: { id: number }) => h.id)).not.toContain(ids.contract);
    // The graph reads entities and edges from the domain's database.
    expect((await json(t.req("GET", "/graph/entity/ledger?domain=ops"))).entity).toMatchObject({ domain: "ops", type: "service" });
    // A duplicate is found whichever database holds the original.
    const dup = await t.req("POST", "/ingest", { title: "again", content: "The supplier contract renews every March unless cancelled in writing.", domain: "ops" });
    expect(await dup.json()).toMatchObject({ status: "duplicate", id: ids.contract });
    expect((await t.req("DELETE", `/memory/${ids.oncall}`)).status).toBe(200);
    expect(await rowsIn(join(t.dir, "domains", "ops.db"), "SELECT COUNT(*) FROM chunks")).toBe(1);
    expect(await rowsIn(join(t.dir, "domains", "ops.db"), "SELECT COUNT(*) FROM tombstones")).toBe(1);
    // One chain in the global database holds every domain's rows.
    expect(await rowsIn(t.dbPath, "SELECT COUNT(*) FROM audit_log WHERE action = 'ingest'")).toBe(4);
    expect(await json(t.req("GET", "/audit/verify"))).toMatchObject({ ok: true });
  });

  it("erases across every domain's database: purge by ids and a DSAR by e-mail", async () => {
    const t = await boot();
    const ids = await seedTwoDomains(t);
    const email = "jane.roe@example.com";
    const a = (await json(t.req("POST", "/ingest", { title: "a", content: `Escalations go to ${email} in ops.`, domain: "ops" }))).id;
    const b = (await json(t.req("POST", "/ingest", { title: "b", content: `Contract notices go to ${email}.`, domain: "legal" }))).id;
    const purge = await json(t.req("POST", "/purge", { ids: [ids.oncall, ids.contract] }));
    expect(purge).toMatchObject({ purged: 2 });
    const dsar = await json(t.req("POST", "/dsar", { email }));
    expect(dsar.located.chunks).toBe(2);
    expect(dsar.export.chunks.map((c: { id: number }) => c.id).sort()).toEqual([a, b].sort());
    const ops = join(t.dir, "domains", "ops.db");
    const legal = join(t.dir, "domains", "legal.db");
    expect(await rowsIn(ops, "SELECT COUNT(*) FROM chunks")).toBe(1);
    expect(await rowsIn(legal, "SELECT COUNT(*) FROM chunks")).toBe(0);
    expect(await rowsIn(ops, `SELECT COUNT(*) FROM chunks WHERE content LIKE '%${email}%'`)).toBe(0);
    expect(await rowsIn(legal, "SELECT COUNT(*) FROM tombstones")).toBe(2);
    const hits = (await json(t.req("POST", "/recall", { query: "escalations contract notices", limit: 10 }))).hits;
    expect(hits.map((h: { id: number }) => h.id)).not.toEqual(expect.arrayContaining([a]));
    expect(await json(t.req("GET", "/audit/verify"))).toMatchObject({ ok: true });
  });

  it("reopens with every domain's chunks in the indexes", async () => {
    const dir = tempDir();
    const t1 = await openTestMemory(MULTI, {}, dir);
    const ids = await seedTwoDomains(t1);
    await t1.memory.close();
    const t2 = await boot(MULTI, dir);
    const hits = (await json(t2.req("POST", "/recall", { query: "supplier contract renews March", limit: 3 }))).hits;
    expect(hits[0].id).toBe(ids.contract);
    expect((await json(t2.req("GET", "/domains"))).domains.find((d: { name: string }) => d.name === "ops")).toMatchObject({ entries: 2, relations: 1 });
  });

  it("refuses to boot over a single-file store that still holds other domains' rows", async () => {
    const dir = tempDir();
    const t1 = await openTestMemory({}, {}, dir);
    await seedTwoDomains(t1);
    await t1.memory.close();
    await expect(openTestMemory(MULTI, {}, dir)).rejects.toThrow(/cairn migrate multi-db/);
  });

  it("sees a domain another process created after boot without a restart: recall, listing and writes go to its file", async () => {
    const dir = tempDir();
    const a = await boot(MULTI, dir);
    const b = await boot(MULTI, dir);
    // b (a second server on the same files) creates the domain and writes to it after a booted.
    expect((await b.req("POST", "/domains", { name: "late" })).status).toBe(201);
    const id = (await json(b.req("POST", "/ingest", { title: "late", content: "The late domain keeps the quarterly freezer inventory.", domain: "late",
      entities: [{ name: "Freezer" }] }))).id;
    expect(id).toBeGreaterThanOrEqual(2 ** 40);
    const hits = (await json(a.req("POST", "/recall", { query: "quarterly freezer inventory", limit: 5 }))).hits;
    expect(hits.map((h: { id: number }) => h.id)).toContain(id);
    expect((await json(a.req("GET", "/domains"))).domains.find((d: { name: string }) => d.name === "late")).toMatchObject({ entries: 1, entities: 1 });
    // a's own write to that domain lands in the domain's file, not in the global one.
    const mine = (await json(a.req("POST", "/ingest", { title: "a", content: "Freezer defrost is scheduled for the first of May.", domain: "late" }))).id;
    expect(await rowsIn(join(dir, "domains", "late.db"), `SELECT COUNT(*) FROM chunks WHERE id = ${mine}`)).toBe(1);
    expect(await rowsIn(join(dir, "cairn.db"), "SELECT COUNT(*) FROM chunks WHERE domain = 'late'")).toBe(0);
    // …and b sees it in turn.
    const back = (await json(b.req("POST", "/recall", { query: "freezer defrost first of May", limit: 5 }))).hits;
    expect(back.map((h: { id: number }) => h.id)).toContain(mine);
  });
});
