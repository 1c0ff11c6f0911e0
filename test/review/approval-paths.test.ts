/**
 * What an approval carries into the promoted memory and what it refuses (SPEC §3, §4.3): the identity hash and labels a
 * door filed the proposal under (the conversation door's turns), the owner label, an unknown supersede target, and the
 * messages a reviewer reads on a refusal. Issue 27: these kill survivors of `src/review/approve-proposal.ts`.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { sql } from "../_helpers/sql.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

async function json(res: Response | Promise<Response>) {
  const r = await res;
  return { status: r.status, body: await r.json() };
}

const digestOf = async (tm: TestMemory, id: number): Promise<string> => (await json(tm.req("GET", `/proposals/${id}`))).body.content_digest;
const approve = (tm: TestMemory, id: number, q: string) => json(tm.req("POST", `/proposals/${id}/approve?${q}`));

describe("approval keeps what the filing door decided", () => {
  it("two conversation turns filed under review become two memories with their turn labels, as on the open door", async () => {
    t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" });
    const res = await json(t.req("POST", "/ingest/conversation", {
      session: { id: "art", date: "2023-05-08" },
      turns: [
        { speaker: "Caroline", text: "Melanie, I paint sunsets, painting sunsets over the sea is what I paint most." },
        { speaker: "Melanie", text: "Lately I paint sunsets too." },
      ],
    }));
    expect(res.status).toBe(200);
    const ids: number[] = res.body.turns.map((x: { proposal_id: number }) => x.proposal_id);
    const promoted: number[] = [];
    for (const id of ids) {
      const r = await approve(t, id, `digest=${await digestOf(t, id)}`);
      expect(r.body).toMatchObject({ status: "approved", chunk_status: "created" });
      promoted.push(r.body.promoted_chunk_id);
    }
    expect(new Set(promoted).size).toBe(2);
    const rows = await sql(t.dbPath, "SELECT id, content_hash, meta FROM chunks ORDER BY id");
    const filed = await sql(t.dbPath, "SELECT id, content_hash FROM proposals ORDER BY id");
    expect(rows.map((r) => r.content_hash)).toEqual(filed.map((p) => p.content_hash));
    const metas = rows.map((r) => JSON.parse(String(r.meta)));
    expect(metas.map((m) => m.proposal_id)).toEqual(ids);
    expect(metas.map((m) => m.conversation?.speaker)).toEqual(["Caroline", "Melanie"]);
  });

  it("carries the owner label to the promoted memory's meta, and no owner when none was given", async () => {
    t = await openTestMemory();
    const a = (await json(t.req("POST", "/ingest/proposal", { content: "Owned: the rota flips on Mondays.", owner: "did:key:bob" }))).body.id;
    const b = (await json(t.req("POST", "/ingest/proposal", { content: "Unowned: the rota flips on Fridays." }))).body.id;
    for (const id of [a, b]) expect((await approve(t, id, `digest=${await digestOf(t, id)}`)).status).toBe(200);
    const metas = (await sql(t.dbPath, "SELECT meta FROM chunks ORDER BY id")).map((r) => JSON.parse(String(r.meta)));
    expect(metas).toEqual([{ proposal_id: a, owner: "did:key:bob" }, { proposal_id: b }]);
  });
});

describe("approval refusals a reviewer reads", () => {
  it("an unknown supersede target is 404 on the supersedes field and leaves the proposal pending with nothing written", async () => {
    t = await openTestMemory();
    const id = (await json(t.req("POST", "/ingest/proposal", { content: "The VPN gateway moved to vpn3.example.org." }))).body.id;
    const r = await approve(t, id, `digest=${await digestOf(t, id)}&supersedes=424242`);
    expect(r.status).toBe(404);
    expect(r.body.error).toMatchObject({ code: "not_found", message: "memory 424242 not found", details: { field: "supersedes" } });
    expect((await json(t.req("GET", `/proposals/${id}`))).body.status).toBe("pending");
    expect(await sql(t.dbPath, "SELECT COUNT(*) AS n FROM chunks")).toEqual([{ n: 0 }]);
    expect(await sql(t.dbPath, "SELECT COUNT(*) AS n FROM consolidation_links")).toEqual([{ n: 0 }]);
  });

  it("names the unknown proposal, and says a changed proposal must be reviewed again", async () => {
    t = await openTestMemory();
    const unknown = await approve(t, 424242, "digest=abc");
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "not_found", message: "proposal 424242 not found" } } });
    const id = (await json(t.req("POST", "/ingest/proposal", { content: "Deploy window is 14:00 UTC." }))).body.id;
    const stale = await approve(t, id, "digest=0000");
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({ code: "digest_mismatch", message: expect.stringContaining("review it again") });
    const missing = await json(t.req("POST", `/proposals/${id}/approve`));
    expect(missing.body.error).toMatchObject({ code: "digest_required", message: expect.stringContaining("?digest=") });
  });
});
