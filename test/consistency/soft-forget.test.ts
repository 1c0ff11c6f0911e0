/**
 * Issue 35 finding 11: a soft `POST /ump/forget` answers `tombstoned` and the store must still pass
 * `cairn check-consistency` — also after many soft forgets raced against each other, a retention expiry, and a record
 * re-remembered onto a soft-forgotten chunk. A tombstone row on a stored chunk that no soft forget explains still fails.
 */
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { cairn } from "../_helpers/cli.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const rec = (text: string, extra: Record<string, unknown> = {}) => ({ ump: "1.0", kind: "semantic", body: { text }, ...extra });
const failing = (r: { checks: { name: string; ok: boolean; sample?: number[] }[] }) =>
  Object.fromEntries(r.checks.filter((c) => !c.ok).map((c) => [c.name, c.sample]));

async function json(res: Promise<Response>): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return await (await res).json();
}

describe("soft forget and check-consistency", () => {
  it("a soft forget answers tombstoned and `cairn check-consistency` exits 0", async () => {
    t = await openTestMemory();
    const a = await json(t.req("POST", "/ump/remember", rec("The dinghy key hangs behind the harbour office door.")));
    expect(await json(t.req("POST", "/ump/forget", { id: a.id, hard: false }))).toEqual({ result: "tombstoned" });
    expect(failing(await t.memory.checkConsistency())).toEqual({});
    const cli = await cairn(["check-consistency", "--json"], { CAIRN_DB_PATH: t.dbPath });
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).checks.find((c: { name: string }) => c.name === "tombstoned_present")).toMatchObject({ ok: true, count: 0 });
  });

  it("stays consistent after concurrent soft forgets, a forgotten lineage, a retention expiry and a re-remembered text", async () => {
    let now = Date.parse("2026-06-01T10:00:00Z");
    t = await openTestMemory({}, { clock: () => new Date(now) });
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) ids.push((await json(t.req("POST", "/ump/remember", rec(`Mooring ${i} is paid until the end of June, fee ${i * 7} euros.`)))).id);
    const revised = await json(t.req("POST", "/ump/revise", { id: ids[0], patch: { body: { text: "Mooring 0 is paid until the end of July." } } }));
    // Every record forgotten at once, some twice over, one through its newer version: each answers tombstoned or 404.
    const asks = [...ids.slice(1), ...ids.slice(1, 9), revised.id].map((id) => t!.req("POST", "/ump/forget", { id, hard: false }));
    const statuses = (await Promise.all(asks)).map((r) => r.status);
    expect(statuses.every((s) => s === 200 || s === 404)).toBe(true);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(24);
    for (const id of [...ids, revised.id]) expect((await t.req("GET", `/ump/memory/${id}`)).status).toBe(404);
    // A record with a retention deadline expires and is swept (a soft tombstone of its own).
    const short = await json(t.req("POST", "/ump/remember", rec("The crane is booked for Tuesday.", { consent: { retention: "PT1M" } })));
    now += 120_000;
    expect((await t.req("GET", `/ump/memory/${short.id}`)).status).toBe(404);
    // The same text remembered again after its soft forget: a live record on the chunk a tombstone row names.
    const again = await json(t.req("POST", "/ump/remember", rec("Mooring 5 is paid until the end of June, fee 35 euros.", { scope: { project: "again" } })));
    expect((await t.req("GET", `/ump/memory/${again.id}`)).status).toBe(200);
    expect(failing(await t.memory.checkConsistency())).toEqual({});
    const cli = await cairn(["check-consistency"], { CAIRN_DB_PATH: t.dbPath });
    expect(cli.code, cli.stdout + cli.stderr).toBe(0);
  });

  it("still fails tombstoned_present for a tombstone no soft forget explains, naming the chunk", async () => {
    t = await openTestMemory();
    const a = await json(t.req("POST", "/ump/remember", rec("Locker 12 code is kept by the harbour master.")));
    await json(t.req("POST", "/ump/forget", { id: a.id, hard: false }));
    const kept = (await json(t.req("POST", "/ingest", { title: "Crane", content: "The crane takes boats up to four tonnes." }))).id as number;
    const live = await json(t.req("POST", "/ump/remember", rec("The slipway gate opens at six.")));
    const liveChunk = Number((await t.memory.db.execute({ sql: "SELECT chunk_id FROM ump_records WHERE id = ?", args: [live.id] })).rows[0].chunk_id);
    const c = createClient({ url: `file:${t.dbPath}` });
    // A plain delete that left its chunk behind, and a "soft" tombstone naming a record that is still live.
    await c.execute({ sql: "INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at) VALUES (?, 'global', 'x', 'delete', 'now')", args: [kept] });
    await c.execute({ sql: "INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at) VALUES (?, 'global', 'x', ?, 'now')", args: [liveChunk, `ump_forget ${live.id}`] });
    c.close();
    const r = await t.memory.checkConsistency();
    expect(failing(r)).toEqual({ tombstoned_present: [kept, liveChunk].sort((x, y) => x - y) });
  });
});
