/**
 * `cairn migrate multi-db` (issue 20, SPEC §2.5, §4.5; docs/scale-out.md "One database per domain"): a single-file store with three
 * domains (chunks with vectors, graph rows, a tombstone, a pending proposal, UMP records) is moved into one libSQL
 * file per domain by the real CLI entry, then booted with CAIRN_MULTI_DB=true through the real composition root.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openMultiDbMigration } from "../../src/memory.ts";
import { domainFilesBeside } from "../../src/runtime/domain-files.ts";
import { processAlive } from "../../src/runtime/platform.ts";
import { cairn, cairnInProcess } from "../_helpers/cli.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { sql } from "../_helpers/sql.ts";

const SINGLE = { CAIRN_MULTI_DB: "false" };
const MULTI = { CAIRN_MULTI_DB: "true" };
let open: TestMemory[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.memory.close();
});
const json = async (r: Promise<Response> | Response) => (await r).json();
const count = async (path: string, q: string) => Number((await sql(path, q))[0][0]);
const ids = (hits: { id: number }[]) => hits.map((h) => h.id);

interface Seeded {
  dir: string;
  dbPath: string;
  ids: Record<string, number>;
  proposal: number;
  record: { old: string; rev: string };
}

/** A single-file store: ops (graph, a revised UMP record), legal (a pending proposal), hr (a deleted chunk), global. */
async function seed(): Promise<Seeded> {
  const dir = tempDir();
  const t = await openTestMemory(SINGLE, {}, dir);
  for (const name of ["ops", "legal", "hr"]) expect((await t.req("POST", "/domains", { name })).status).toBe(201);
  const docs: [string, string, string, Record<string, unknown>][] = [
    ["ledger", "ops", "The ledger service settles card payments nightly at 02:00 UTC.", {
      entities: [{ name: "Ledger", type: "service" }, { name: "Payments" }], relations: [{ from: "ledger", to: "payments", type: "settles" }],
    }],
    ["oncall", "ops", "The payments on-call rotation changes every Monday.", {}],
    ["contract", "legal", "The supplier contract renews every March unless cancelled in writing.", { entities: [{ name: "Supplier" }] }],
    ["leave", "hr", "Parental leave requests go to the people team six weeks ahead.", {}],
    ["badge", "hr", "Lost office badges are replaced at the front desk within a day.", {}],
    ["garden", "global", "Tomatoes need deep watering twice a week in summer.", {}],
  ];
  const ids: Record<string, number> = {};
  for (const [key, domain, content, extra] of docs) {
    const body = await json(t.req("POST", "/ingest", { title: key, content, domain, ...extra }));
    expect(body).toMatchObject({ status: "created" });
    ids[key] = body.id;
  }
  expect((await t.req("DELETE", `/memory/${ids.badge}`)).status).toBe(200);
  const proposal = (await json(t.req("POST", "/ingest/proposal", {
    content: "Contract amendments need two signatures from the legal team.", origin: "human", domain: "legal",
  }))).id;
  // A UMP record over the ops chunk, revised: the new version is a new ops chunk, both records point at chunks.
  const records = JSON.parse(await (await t.req("GET", "/export?format=ump")).text()).records as { id: string; body: { text: string } }[];
  const old = records.find((r) => r.body.text.startsWith("The payments on-call"))!.id;
  const rev = (await json(t.req("POST", "/ump/revise", { id: old, patch: { body: { text: "The payments on-call rotation changes every Tuesday." } } }))).id;
  expect(rev).toBeTypeOf("string");
  await t.memory.close();
  return { dir, dbPath: t.dbPath, ids, proposal, record: { old, rev } };
}

const env = (s: Seeded) => ({ CAIRN_DB_PATH: s.dbPath });
const domainDb = (s: Seeded, d: string) => join(s.dir, "domains", `${d}.db`);

describe("cairn migrate multi-db", { timeout: 300_000 }, () => {
  it("moves every domain with its ids, and the multi-database boot serves the same store", async () => {
    const s = await seed();
    const before = {
      ops: await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'ops'"),
      vectors: await count(s.dbPath, "SELECT COUNT(*) FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id WHERE c.domain = 'ops'"),
    };
    expect(before.ops).toBe(3);
    expect(before.vectors).toBe(3);

    const dry = await cairnInProcess(["migrate", "multi-db", "--dry-run"], env(s));
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would move ops: 3 chunks, 3 vectors, 0 tombstones, 2 entities, 1 relations");
    expect(dry.stdout).toContain("would move hr: 1 chunks, 1 vectors, 1 tombstones");
    expect(dry.stdout).toContain("dry run: 3 domain(s) would move; nothing changed");
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain <> 'global'")).toBe(5);

    // The real process, as an operator runs it.
    const run = await cairn(["migrate", "multi-db"], env(s));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/moved hr: 1 chunks, 1 vectors, 1 tombstones, 0 entities, 0 relations/);
    expect(run.stdout).toMatch(/moved legal: 1 chunks, 1 vectors, 0 tombstones, 1 entities, 0 relations, \d+ entity-chunk links/);
    expect(run.stdout).toMatch(/moved ops: 3 chunks, 3 vectors, 0 tombstones, 2 entities, 1 relations, \d+ entity-chunk links/);
    expect(run.stdout).toMatch(/3 domain\(s\) moved in \d+ ms; none left in the single file/);
    expect(run.stdout).toContain("ok   promoted_missing");
    expect(run.stdout).toContain("\nconsistent\n");

    // The rows are in the domain files, under their old ids, and gone from the single file.
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain <> 'global'")).toBe(0);
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM entities WHERE domain <> 'global'")).toBe(0);
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM tombstones WHERE domain <> 'global'")).toBe(0);
    expect(await count(domainDb(s, "ops"), `SELECT COUNT(*) FROM chunks WHERE id IN (${s.ids.ledger}, ${s.ids.oncall})`)).toBe(2);
    expect(await count(domainDb(s, "ops"), "SELECT COUNT(*) FROM chunk_vectors")).toBe(3);
    expect(await count(domainDb(s, "hr"), `SELECT COUNT(*) FROM tombstones WHERE chunk_id = ${s.ids.badge}`)).toBe(1);
    // One audited step per domain, naming it and its rows.
    const audit = await sql(s.dbPath, "SELECT detail FROM audit_log WHERE action = 'domain_migrated' ORDER BY id");
    expect(audit.map((r) => JSON.parse(String(r.detail)).domain)).toEqual(["hr", "legal", "ops"]);
    expect(JSON.parse(String(audit[2].detail)).rows).toMatchObject({ chunks: 3, vectors: 3, entities: 2, relations: 1 });

    // The single-file boot now refuses (it would miss the domains' rows); the multi-database boot serves them.
    await expect(openTestMemory(SINGLE, {}, s.dir)).rejects.toThrow(/CAIRN_MULTI_DB=true/);
    const t = await openTestMemory(MULTI, {}, s.dir);
    open.push(t);
    const hit = async (q: string, domain?: string) => ids((await json(t.req("POST", "/recall", { query: q, limit: 10, ...(domain ? { domain } : {}) }))).hits);
    expect((await hit("supplier contract renews March"))[0]).toBe(s.ids.contract);
    expect(await hit("ledger settles card payments nightly", "ops")).toContain(s.ids.ledger);
    expect((await hit("parental leave people team"))[0]).toBe(s.ids.leave);
    expect(await hit("lost office badges front desk")).not.toContain(s.ids.badge);
    expect((await json(t.req("GET", "/graph/entity/ledger?domain=ops"))).entity).toMatchObject({ domain: "ops", type: "service" });
    expect((await json(t.req("GET", "/domains"))).domains).toEqual([
      { name: "global", entries: 1, entities: 0, relations: 0, multi_db: true },
      { name: "hr", entries: 1, entities: 0, relations: 0, multi_db: true },
      { name: "legal", entries: 1, entities: 1, relations: 0, multi_db: true },
      { name: "ops", entries: 3, entities: 2, relations: 1, multi_db: true },
    ]);
    // UMP records still read their chunks' text (global rows pointing into a domain file).
    expect((await json(t.req("GET", `/ump/memory/${s.record.rev}`))).record.body.text).toBe("The payments on-call rotation changes every Tuesday.");
    expect((await json(t.req("GET", `/ump/memory/${s.record.old}`))).record.superseded_by).toEqual([s.record.rev]);
    // The pending proposal (a global row) is approved into the legal domain's file.
    const view = await json(t.req("GET", `/proposals/${s.proposal}`));
    expect(view.status).toBe("pending");
    const approved = await t.req("POST", `/proposals/${s.proposal}/approve?digest=${view.content_digest}`);
    expect(approved.status).toBe(200);
    expect(await count(domainDb(s, "legal"), "SELECT COUNT(*) FROM chunks")).toBe(2);
    // A new chunk in a moved domain gets an id from the domain's range; a moved chunk is erased where it now lives.
    const fresh = (await json(t.req("POST", "/ingest", { title: "n", content: "Ops standup moved to 09:30 on Wednesdays.", domain: "ops" }))).id;
    expect(fresh).toBeGreaterThanOrEqual(2 ** 40);
    expect((await json(t.req("POST", "/purge", { ids: [s.ids.ledger] })))).toMatchObject({ purged: 1 });
    expect(await count(domainDb(s, "ops"), `SELECT COUNT(*) FROM chunks WHERE id = ${s.ids.ledger}`)).toBe(0);
    expect(await count(domainDb(s, "ops"), `SELECT COUNT(*) FROM tombstones WHERE chunk_id = ${s.ids.ledger}`)).toBe(1);
    expect(await hit("ledger settles card payments nightly", "ops")).not.toContain(s.ids.ledger);
    expect((await t.req("DELETE", `/memory/${s.ids.contract}`)).status).toBe(200);
    expect(await count(domainDb(s, "legal"), `SELECT COUNT(*) FROM chunks WHERE id = ${s.ids.contract}`)).toBe(0);
    // The one audit chain (global file, every domain's rows) verifies, and the store is consistent across files.
    expect(await json(t.req("GET", "/audit/verify"))).toMatchObject({ ok: true });
    const check = await t.memory.checkConsistency();
    expect(check.checks.filter((c) => !c.ok)).toEqual([]);
  });

  it("resumes after a run stopped mid-domain, ends consistent, and a second run is a no-op", async () => {
    const s = await seed();
    const legalBefore = await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'legal'");
    // A run killed between legal's copy commit and its global commit (hr is done by then).
    const m = await openMultiDbMigration(parseConfig(env(s)), { domainFiles: domainFilesBeside(s.dbPath), pidAlive: processAlive });
    await expect(m.run({ afterCopy: async (d) => { if (d === "legal") throw new Error("killed"); } })).rejects.toThrow("killed");
    await m.close();
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'hr'")).toBe(0);
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'legal'")).toBe(legalBefore);
    expect(await count(domainDb(s, "legal"), "SELECT COUNT(*) FROM chunks")).toBe(legalBefore);
    // Half-moved: the multi-database boot refuses and names the command.
    await expect(openTestMemory(MULTI, {}, s.dir)).rejects.toThrow(/cairn migrate multi-db/);

    const again = await cairnInProcess(["migrate", "multi-db", "--json"], env(s));
    expect(again.code).toBe(0);
    const r = JSON.parse(again.stdout);
    expect(r.moved.map((x: { domain: string }) => x.domain)).toEqual(["legal", "ops"]);
    expect(r.consistency.ok).toBe(true);
    // The redone copy replaced the first one: no row twice.
    expect(await count(domainDb(s, "legal"), "SELECT COUNT(*) FROM chunks")).toBe(legalBefore);
    expect(await count(domainDb(s, "legal"), "SELECT COUNT(*) FROM entities")).toBe(1);

    const audits = await count(s.dbPath, "SELECT COUNT(*) FROM audit_log");
    const third = await cairnInProcess(["migrate", "multi-db"], env(s));
    expect(third.code).toBe(0);
    expect(third.stdout).toContain("0 domain(s) moved");
    expect(third.stdout).toContain("\nconsistent\n");
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM audit_log")).toBe(audits);
    const t = await openTestMemory(MULTI, {}, s.dir);
    open.push(t);
    expect((await json(t.req("POST", "/recall", { query: "supplier contract renews March", limit: 3 }))).hits[0].id).toBe(s.ids.contract);
  });

  it("moves one domain with --domain, and refuses while a server serves the store", async () => {
    const s = await seed();
    const one = await cairnInProcess(["migrate", "multi-db", "--domain", "hr"], env(s));
    expect(one.code).toBe(0);
    expect(one.stdout).toContain("1 domain(s) moved");
    expect(one.stdout).toContain("still in the single file: legal, ops");
    expect((await cairnInProcess(["migrate", "multi-db", "--domain", "nope"], env(s))).stderr).toContain("not_found");

    const served = await openTestMemory(SINGLE, { pid: process.pid, pidAlive: processAlive }, s.dir).catch((e) => e);
    // hr has its own database now, so the single-file boot is refused; stamp the store as served directly instead.
    expect(String(served)).toMatch(/CAIRN_MULTI_DB=true/);
    const stamp = JSON.stringify({ state: "running", pid: process.pid, booted_at: new Date().toISOString(), previous: "clean" });
    await sql(s.dbPath, "INSERT OR REPLACE INTO store_meta (key, value) VALUES ('shutdown_stamp', ?)", [stamp]);
    const refused = await cairnInProcess(["migrate", "multi-db"], env(s));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`a server (pid ${process.pid}) is serving this store: stop it before the migration`);
    expect(await count(s.dbPath, "SELECT COUNT(*) FROM chunks WHERE domain = 'ops'")).toBe(3);
  });

  it("keeps moved chunks in recall when a feed falls behind its retention and reconciles the whole chunk set", async () => {
    const s = await seed();
    expect((await cairnInProcess(["migrate", "multi-db"], env(s))).code).toBe(0);
    const t = await openTestMemory(MULTI, {}, s.dir);
    open.push(t);
    // Two global writes, then the older change pruned: the global feed finds a gap and runs its full reconcile.
    for (const content of ["Compost heaps want turning every fortnight.", "Seedlings go out after the last frost."]) {
      await t.req("POST", "/ingest", { title: "g", content, domain: "global" });
    }
    await sql(s.dbPath, "DELETE FROM chunk_changes WHERE seq < (SELECT MAX(seq) FROM chunk_changes)");
    const hits = ids((await json(t.req("POST", "/recall", { query: "ledger settles card payments nightly", domain: "ops", limit: 10 }))).hits);
    // The moved ops chunk keeps its single-file id: the global database's reconcile must not take it for deleted.
    expect(hits).toContain(s.ids.ledger);
    expect((await t.memory.changes.status()).reconciles).toBe(1);
  });
});
