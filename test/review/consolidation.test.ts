import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { cachedTemporalSource } from "../../src/review/link-cache.ts";
import { dbTemporalSource, temporalFilter, type TemporalOptions } from "../../src/review/recall-filter.ts";
import type { TemporalView } from "../../src/recall/ports.ts";

/** Runs the filter over the store-reading source and the cached source (as recall uses it); both must agree. */
async function filterBoth(tm: TestMemory, ids: number[], o: TemporalOptions): Promise<TemporalView> {
  const db = await temporalFilter(dbTemporalSource(tm.memory.db.client), ids, o);
  const cached = await temporalFilter(cachedTemporalSource(tm.memory.db.client, (id) => tm.memory.recallEngine.index.labels.get(id)), ids, o);
  expect(cached).toEqual(db);
  return db;
}

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

/** A clock the test moves by hand. */
function manualClock(start = "2025-01-01T00:00:00.000Z") {
  let now = Date.parse(start);
  return { clock: () => new Date(now), advance: (ms: number) => { now += ms; return new Date(now).toISOString(); }, iso: () => new Date(now).toISOString() };
}

const HOUR = 3_600_000;

async function ingest(tm: TestMemory, body: Record<string, unknown>): Promise<number> {
  const res = await tm.req("POST", "/ingest", body);
  expect(res.status).toBe(200);
  return (await res.json()).id;
}

async function recall(tm: TestMemory, body: Record<string, unknown>) {
  const res = await tm.req("POST", "/recall", { limit: 10, ...body });
  expect(res.status).toBe(200);
  return (await res.json()).hits as { id: number; conflict?: boolean; decayed?: boolean }[];
}

describe("supersede, undo and historical recall (SPEC §3)", () => {
  it("current recall drops the superseded fact, recall at an earlier time still returns it, undo restores it", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    const tOld = c.advance(HOUR);
    const oldId = await ingest(t, { title: "Backup schedule", content: "Database backups run nightly at 01:00 UTC." });
    const tNew = c.advance(HOUR);
    const newId = await ingest(t, { title: "Backup schedule", content: "Database backups run every six hours since the migration." });
    const query = { query: "database backups schedule" };
    expect((await recall(t, query)).map((h) => h.id).sort()).toEqual([oldId, newId].sort());

    const tApprove = c.advance(HOUR);
    const link = await (await t.req("POST", "/consolidate", { from: newId, to: oldId })).json();
    expect(link).toMatchObject({ kind: "supersedes", from: newId, to: oldId, status: "approved", approved_at: tApprove });

    const now = await recall(t, query);
    expect(now.map((h) => h.id)).toEqual([newId]);
    expect(now[0].conflict).toBeUndefined();
    // Between the two writes only the old fact existed; between the new write and the approval both were current.
    expect((await recall(t, { ...query, at: new Date(Date.parse(tOld) + 1000).toISOString() })).map((h) => h.id)).toEqual([oldId]);
    expect((await recall(t, { ...query, at: new Date(Date.parse(tNew) + 1000).toISOString() })).map((h) => h.id).sort()).toEqual([oldId, newId].sort());

    const tUndo = c.advance(HOUR);
    const undone = await (await t.req("POST", "/consolidate/undo", { id: link.id })).json();
    expect(undone).toMatchObject({ status: "undone", closed_at: tUndo });
    expect((await recall(t, query)).map((h) => h.id).sort()).toEqual([oldId, newId].sort());
    // While the supersede was in force, history still shows it in force.
    expect((await recall(t, { ...query, at: new Date(Date.parse(tApprove) + 1000).toISOString() })).map((h) => h.id)).toEqual([newId]);
    expect((await t.req("POST", "/consolidate/undo", { id: link.id })).status).toBe(409);

    const actions = (await (await t.req("GET", "/audit")).json()).rows.map((r: { action: string }) => r.action);
    expect(actions).toEqual(["ingest", "ingest", "consolidate", "consolidate_undo"]);
  });

  it("marks conflict on hits joined by a contradicts link or an unresolved supersedes proposal", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    const a = await ingest(t, { title: "Support hours", content: "Support desk hours are nine to five on weekdays." });
    c.advance(HOUR);
    const b = await ingest(t, { title: "Support hours", content: "Support desk hours are around the clock, every day." });
    c.advance(HOUR);
    const other = await ingest(t, { title: "Parking", content: "Support staff park in the north garage." });
    const q = { query: "support desk hours" };
    expect((await recall(t, q)).some((h) => h.conflict)).toBe(false);
    c.advance(HOUR);
    await t.req("POST", "/consolidate", { from: b, to: a, kind: "contradicts" });
    const hits = await recall(t, { query: "support" });
    const byId = new Map(hits.map((h) => [h.id, h]));
    expect(byId.get(a)?.conflict).toBe(true);
    expect(byId.get(b)?.conflict).toBe(true);
    expect(byId.get(other)?.conflict).toBeUndefined();
  });

  it("excludes decayed entries unless the caller opts in, then marks them decayed", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    const expires = new Date(Date.parse(c.iso()) + 2 * HOUR).toISOString();
    const id = await ingest(t, { title: "Promo", content: "The spring promo code gives ten percent off.", expires_at: expires });
    const q = { query: "spring promo code" };
    expect((await recall(t, q)).map((h) => h.id)).toEqual([id]);
    c.advance(3 * HOUR);
    expect(await recall(t, q)).toEqual([]);
    const opted = await recall(t, { ...q, include_decayed: true });
    expect(opted).toEqual([expect.objectContaining({ id, decayed: true })]);
    // Before its expiry it was not decayed.
    const earlier = await recall(t, { ...q, at: new Date(Date.parse(expires) - HOUR).toISOString() });
    expect(earlier).toEqual([expect.objectContaining({ id })]);
    expect(earlier[0].decayed).toBeUndefined();
  });
});

describe("temporalFilter (the seam recall calls)", () => {
  it("computes drop, conflict and decayed sets as of a time", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    const a = await ingest(t, { title: "a", content: "alpha fact one" });
    const b = await ingest(t, { title: "b", content: "alpha fact two" });
    const d = await ingest(t, { title: "d", content: "delta fact", expires_at: new Date(Date.parse(c.iso()) + HOUR).toISOString() });
    const tBefore = Date.parse(c.advance(HOUR));
    c.advance(HOUR);
    await t.req("POST", "/consolidate", { from: b, to: a });
    const now = Date.parse(c.advance(HOUR));
    const cur = await filterBoth(t, [a, b, d], { includeDecayed: false, nowMs: now });
    expect([...cur.drop].sort()).toEqual([a, d].sort());
    expect([...cur.conflict]).toEqual([]);
    const withDecayed = await filterBoth(t, [a, b, d], { includeDecayed: true, nowMs: now });
    expect([...withDecayed.drop]).toEqual([a]);
    expect([...withDecayed.decayed]).toEqual([d]);
    const past = await filterBoth(t, [a, b, d], { includeDecayed: false, nowMs: now, atMs: tBefore });
    expect([...past.drop]).toEqual([d]);
    expect(await filterBoth(t, [], { includeDecayed: false, nowMs: now })).toEqual({ drop: new Set(), conflict: new Set(), decayed: new Set() });
  });

  it("forgets the links of a deleted chunk, so the fact it superseded is current again", async () => {
    t = await openTestMemory();
    const a = await ingest(t, { title: "a", content: "the gateway port is 8080" });
    const b = await ingest(t, { title: "b", content: "the gateway port is 9090" });
    await t.req("POST", "/consolidate", { from: b, to: a });
    expect([...(await filterBoth(t, [a], { includeDecayed: false, nowMs: Date.now() })).drop]).toEqual([a]);
    await t.req("DELETE", `/memory/${b}`);
    expect((await filterBoth(t, [a], { includeDecayed: false, nowMs: Date.now() })).drop.size).toBe(0);
    expect(await (await t.req("GET", "/consolidate/links")).json()).toEqual([]);
  });
});

describe("link changes from another process", () => {
  it("are seen by the next recall of a running server (the link cache reloads on the link-set version)", async () => {
    const dir = tempDir();
    t = await openTestMemory({}, {}, dir);
    const a = await ingest(t, { title: "Port", content: "The metrics exporter listens on port 9100." });
    const b = await ingest(t, { title: "Port", content: "The metrics exporter listens on port 9200 after the upgrade." });
    const q = { query: "metrics exporter port" };
    expect((await recall(t, q)).map((h) => h.id).sort()).toEqual([a, b].sort());
    // A second process (another connection to the same file), as `cairn resolve` would be.
    const other = await openTestMemory({}, {}, dir);
    const link = await other.memory.consolidate.approve({ from: b, to: a });
    expect((await recall(t, q)).map((h) => h.id)).toEqual([b]);
    await other.memory.consolidate.undo(link.id);
    await other.memory.close();
    expect((await recall(t, q)).map((h) => h.id).sort()).toEqual([a, b].sort());
  });
});

describe("POST /consolidate/propose (deterministic)", () => {
  it("proposes contradicts for the same subject and relation with different objects, newer → older", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    const acme = await ingest(t, { title: "Alice", content: "Alice is employed by Acme.", entities: [{ name: "alice" }, { name: "acme" }], relations: [{ from: "alice", to: "acme", type: "works_at" }] });
    c.advance(HOUR);
    const globex = await ingest(t, { title: "Alice move", content: "Alice joined Globex.", entities: [{ name: "globex" }], relations: [{ from: "alice", to: "globex", type: "works_at" }] });
    c.advance(HOUR);
    // Disjoint valid windows are history, not a conflict.
    await ingest(t, { title: "Bob 2019", content: "Bob was at Initech in 2019.", entities: [{ name: "bob" }, { name: "initech" }], relations: [{ from: "bob", to: "initech", type: "works_at", valid_at: "2019-01-01T00:00:00Z", invalid_at: "2020-01-01T00:00:00Z" }] });
    await ingest(t, { title: "Bob 2021", content: "Bob moved to Hooli in 2021.", entities: [{ name: "hooli" }], relations: [{ from: "bob", to: "hooli", type: "works_at", valid_at: "2021-01-01T00:00:00Z" }] });
    const res = await (await t.req("POST", "/consolidate/propose")).json();
    expect(res.proposed).toEqual([expect.objectContaining({
      kind: "contradicts", from: globex, to: acme, status: "proposed",
      basis: expect.objectContaining({ rule: "graph_conflict", subject: "alice", relation: "works_at" }),
    })]);
    // Only proposed: agents are not shown a conflict no human has confirmed.
    const before = await recall(t, { query: "Alice Acme Globex" });
    expect(before.filter((h) => h.id === acme || h.id === globex).map((h) => h.conflict)).toEqual([undefined, undefined]);
    // Approved: both facts carry conflict in recall.
    expect((await t.req("POST", "/consolidate", { id: res.proposed[0].id })).status).toBe(200);
    const hits = await recall(t, { query: "Alice Acme Globex" });
    expect(hits.filter((h) => h.id === acme || h.id === globex).every((h) => h.conflict === true)).toBe(true);
    // Running again proposes nothing new and writes no audit row.
    expect((await (await t.req("POST", "/consolidate/propose", {})).json()).proposed).toEqual([]);
    expect((await (await t.req("GET", "/audit?action=consolidate_propose")).json()).rows).toHaveLength(1);
  });

  it("never proposes contradicts for relations that hold several values at once", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    // A team on call for two services, told in two notes: a multi-valued relation of the linker's vocabulary.
    await ingest(t, { title: "Payments rota", content: "The platform team is on call for payments.", entities: [{ name: "platform team" }, { name: "payments" }], relations: [{ from: "platform team", to: "payments", type: "on_call_for" }] });
    c.advance(HOUR);
    await ingest(t, { title: "Search rota", content: "The platform team is on call for search.", entities: [{ name: "search" }], relations: [{ from: "platform team", to: "search", type: "on_call_for" }] });
    // A relation type of the client's own that one note already gives two values: it holds several.
    c.advance(HOUR);
    await ingest(t, { title: "Languages", content: "Dana speaks French and Dutch.", entities: [{ name: "dana" }, { name: "french" }, { name: "dutch" }], relations: [{ from: "dana", to: "french", type: "speaks" }, { from: "dana", to: "dutch", type: "speaks" }] });
    c.advance(HOUR);
    await ingest(t, { title: "More languages", content: "Dana speaks Italian.", entities: [{ name: "italian" }], relations: [{ from: "dana", to: "italian", type: "speaks" }] });
    // The same subject under a single-valued relation still contradicts.
    c.advance(HOUR);
    const lisbon = await ingest(t, { title: "Dana home", content: "Dana lives in Lisbon.", entities: [{ name: "lisbon" }], relations: [{ from: "dana", to: "lisbon", type: "lives_in" }] });
    c.advance(HOUR);
    const porto = await ingest(t, { title: "Dana moved", content: "Dana lives in Porto.", entities: [{ name: "porto" }], relations: [{ from: "dana", to: "porto", type: "lives_in" }] });
    const res = await (await t.req("POST", "/consolidate/propose")).json();
    expect(res.proposed.map((l: { kind: string; from: number; to: number; basis: { relation: string } }) => [l.kind, l.from, l.to, l.basis.relation])).toEqual([["contradicts", porto, lisbon, "lives_in"]]);
  });

  it("proposes supersedes for near-duplicates at or above the threshold, and never re-proposes a dismissed pair", async () => {
    const c = manualClock();
    t = await openTestMemory({}, { clock: c.clock });
    c.advance(HOUR);
    const v1 = await ingest(t, { title: "Runbook", content: "Restart the ingest worker with systemctl restart ingest-worker after rotating credentials." });
    c.advance(HOUR);
    const v2 = await ingest(t, { title: "Runbook", content: "Restart the ingest worker with systemctl restart ingest-worker after rotating the credentials." });
    c.advance(HOUR);
    await ingest(t, { title: "Unrelated", content: "The cafeteria serves soup on Thursdays." });
    const res = await (await t.req("POST", "/consolidate/propose", { threshold: 0.9 })).json();
    expect(res.threshold).toBe(0.9);
    expect(res.proposed).toHaveLength(1);
    const [link] = res.proposed;
    expect(link).toMatchObject({ kind: "supersedes", from: v2, to: v1, basis: { rule: "near_duplicate" } });
    expect(link.basis.similarity).toBeGreaterThanOrEqual(0.9);
    const dismissed = await (await t.req("POST", "/consolidate/undo", { id: link.id })).json();
    expect(dismissed.status).toBe("dismissed");
    expect((await (await t.req("POST", "/consolidate/propose")).json()).proposed).toEqual([]);
    expect((await t.req("POST", "/consolidate/propose", { threshold: 2 })).status).toBe(400);
  });

  it("approves a proposed link by id once; refuses a supersede cycle; 404 for unknown links", async () => {
    t = await openTestMemory();
    const a = await ingest(t, { title: "t", content: "The on-call phone number is in the wiki under Contacts." });
    const b = await ingest(t, { title: "t", content: "The on-call phone number is in the wiki under Contacts page." });
    const [link] = (await (await t.req("POST", "/consolidate/propose")).json()).proposed;
    const ok = await t.req("POST", "/consolidate", { id: link.id });
    expect(ok.status).toBe(200);
    expect((await ok.json()).status).toBe("approved");
    expect((await t.req("POST", "/consolidate", { id: link.id })).status).toBe(409);
    const cycle = await t.req("POST", "/consolidate", { from: a, to: b });
    expect(cycle.status).toBe(409);
    expect((await t.req("POST", "/consolidate", { id: 999 })).status).toBe(404);
    expect((await t.req("POST", "/consolidate", { from: a, to: 999 })).status).toBe(404);
    expect((await t.req("POST", "/consolidate", {})).status).toBe(400);
    expect((await (await t.req("GET", "/consolidate/links?status=approved")).json())).toHaveLength(1);
    expect((await (await t.req("GET", "/audit?action=consolidate")).json()).rows).toHaveLength(1);
  });
});
