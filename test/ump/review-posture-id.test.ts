/**
 * Issue 22 item 1: under `review` posture, the id `ump.remember` hands out
 * is the id the record has once approved (SPEC §4.9, §3); before approval a
 * read says the record is pending review instead of a bare 404.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { rec } from "./_keyed.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const json = async (res: Response | Promise<Response>) => (await res).json();

async function approve(m: TestMemory, proposalId: number) {
  const view = await json(m.req("GET", `/proposals/${proposalId}`));
  return m.req("POST", `/proposals/${proposalId}/approve?digest=${view.content_digest}`);
}

describe("ump.remember under review posture", () => {
  it("hands out an id that answers pending before approval and resolves to the record after it", async () => {
    const m = (t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" }));
    const r = await json(m.req("POST", "/ump/remember", rec("The release train leaves every second Tuesday", { title: "release train" })));
    expect(r).toMatchObject({ id: expect.stringMatching(/^urn:ump:/), review: { status: "pending", proposal_id: expect.any(Number) } });

    const before = await m.req("GET", `/ump/memory/${r.id}`);
    expect(before.status).toBe(404);
    const env = await before.json();
    expect(env.error.code).toBe("review_pending");
    expect(env.error.details).toMatchObject({ id: r.id, review: { status: "pending", proposal_id: r.review.proposal_id } });

    const ok = await approve(m, r.review.proposal_id);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ status: "approved", record_id: r.id });

    const after = await m.req("GET", `/ump/memory/${r.id}`);
    expect(after.status).toBe(200);
    const got = await after.json();
    expect(got.record).toMatchObject({ id: r.id, kind: "semantic", title: "release train", body: { text: "The release train leaves every second Tuesday" } });
    // The same record, not a second derived one, is what recall serves.
    const found = await json(m.req("POST", "/ump/recall", { query: "release train Tuesday", limit: 5 }));
    expect(found.results.map((x: { record: { id: string } }) => x.record.id)).toEqual([r.id]);
  });

  it("the MCP-shaped service call behaves the same: the reply id resolves once approved", async () => {
    const m = (t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" }));
    const { operatorActor } = await import("../../src/ump/actor.ts");
    const actor = operatorActor(undefined);
    const r = await m.memory.ump.remember(actor, rec("Backups are verified by restoring one every Friday"));
    await expect(m.memory.ump.get(actor, r.id)).rejects.toMatchObject({ code: "review_pending" });
    const view = await m.memory.review.get(r.review!.proposal_id);
    const out = await m.memory.review.approve(r.review!.proposal_id, { digest: view.content_digest });
    expect(out).toMatchObject({ record_id: r.id });
    expect((await m.memory.ump.get(actor, r.id)).record.id).toBe(r.id);
  });

  it("a rejected proposal's id answers a plain 404 not_found", async () => {
    const m = (t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" }));
    const r = await json(m.req("POST", "/ump/remember", rec("a write the reviewer turns down")));
    expect((await m.req("POST", `/proposals/${r.review.proposal_id}/reject`)).status).toBe(200);
    const res = await m.req("GET", `/ump/memory/${r.id}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });

  it("an approved revise supersedes the old version under the id the revise reply named", async () => {
    const m = (t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" }));
    const first = await json(m.req("POST", "/ump/remember", rec("The office opens at 8")));
    await approve(m, first.review.proposal_id);
    const rev = await json(m.req("POST", "/ump/revise", { id: first.id, patch: { body: { text: "The office opens at 9" } } }));
    expect(rev.review.status).toBe("pending");
    await approve(m, rev.review.proposal_id);
    const cur = (await json(m.req("GET", `/ump/memory/${rev.id}`))).record;
    expect(cur).toMatchObject({ id: rev.id, supersedes: [first.id], body: { text: "The office opens at 9" } });
    const old = (await json(m.req("GET", `/ump/memory/${first.id}`))).record;
    expect(old.superseded_by).toEqual([rev.id]);
  });
});
