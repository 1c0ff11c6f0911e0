/**
 * The same human gate for what is not memory (SPEC §4.11 `channel/out`, src/review/decision-hooks.ts): approving a
 * drafted reply promotes nothing, returns what the approval did and audits it; the digest still binds; rejecting is
 * heard by the door in the same transaction. And the read pipeline's fingerprint (SPEC §1 Input hygiene): every rule
 * table of the read seam enters it, so a change to any of them moves every digest (outstanding approvals fail closed).
 * Issue 27: these kill the mutants of `src/review/` that no test reached.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { as, crmCase, workflowEnv } from "../workflow/_setup.ts";
import { defaultReadCanonical, widenReadCanonical } from "../../src/review/read-canonical.ts";
import { PLACEHOLDERS } from "../../src/hygiene/redact-pii.ts";
import { INVISIBLE_RANGES } from "../../src/hygiene/invisible-chars.ts";
import { AUTO_FETCH_ATTRIBUTES, FETCHING_CSS, REMOVED_TAGS, REMOVED_WITH_CONTENT } from "../../src/hygiene/hostile-elements.ts";
import { SENTINEL_LITERALS } from "../../src/hygiene/sentinels.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const op = as(["workflow-operator"]);
const admin = as(["admin"]);

async function draftReply(text: string) {
  const dir = tempDir();
  const m = (t = await openTestMemory(workflowEnv(dir), {}, dir));
  const run = (await m.memory.workflow.applyCase(crmCase("7"), { origin: "operator" })).run.id;
  await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:7", origin: "operator", channel: { kind: "signal", conversation_ref: "u:c7" } } });
  const draft = await (await m.req("POST", `/workflow/runs/${run}/channel-out`, { text }, op)).json();
  expect(draft.proposal_id).toEqual(expect.any(Number));
  const statuses = async () => (await m.memory.workflow.getRun(run)).events.filter((e) => e.type === "channel/out").map((e) => (e.payload as { status: string }).status);
  return { m, id: draft.proposal_id as number, statuses };
}

describe("a governed door's proposal (channel/out)", () => {
  it("approval promotes no memory, returns the door's effect and audits it; a stale digest is still refused", async () => {
    const { m, id, statuses } = await draftReply("Your replacement router ships today.");
    const view = await m.memory.review.get(id);
    expect(view.door).toBe("workflow:channel_out");
    const stale = await m.req("POST", `/proposals/${id}/approve?digest=${"0".repeat(64)}`, undefined, admin);
    expect(stale.status).toBe(409);
    expect((await stale.json()).error.code).toBe("digest_mismatch");
    expect(await statuses()).toEqual(["pending_review"]);
    const res = await m.req("POST", `/proposals/${id}/approve?digest=${view.content_digest}`, undefined, admin);
    expect(res.status).toBe(200);
    const r = await res.json();
    expect(r).toMatchObject({ id, status: "approved", promoted_chunk_id: null, effect: expect.any(Object) });
    expect(Object.keys(r.effect).length).toBeGreaterThan(0);
    expect(r.chunk_status).toBeUndefined();
    expect(r.chunk_id).toBeUndefined();
    expect((await m.memory.db.client.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n).toBe(0);
    expect(await statuses()).toEqual(["pending_review", "approved"]);
    const audit = (await (await m.req("GET", "/audit?action=approve", undefined, admin)).json()).rows;
    expect(audit).toEqual([expect.objectContaining({ target: `proposal:${id}`, detail: { proposal_id: id, promoted: false, door: "workflow:channel_out", effect: r.effect } })]);
    expect((await m.memory.review.get(id)).status).toBe("approved");
    const twice = await m.req("POST", `/proposals/${id}/approve?digest=${view.content_digest}`, undefined, admin);
    expect(twice.status).toBe(409);
    expect(await statuses()).toEqual(["pending_review", "approved"]);
  });

  it("rejection is heard by the door and audited with the proposal's content hash", async () => {
    const { m, id, statuses } = await draftReply("We will call you back tomorrow.");
    expect((await m.req("POST", `/proposals/${id}/reject`, {}, admin)).status).toBe(200);
    expect(await statuses()).toEqual(["pending_review", "rejected"]);
    const [row] = (await m.memory.db.client.execute("SELECT content_hash FROM proposals WHERE id = ?", [id])).rows;
    const audit = (await (await m.req("GET", "/audit?action=reject", undefined, admin)).json()).rows;
    expect(audit).toEqual([expect.objectContaining({ target: `proposal:${id}`, detail: { proposal_id: id, content_hash: row.content_hash } })]);
  });
});

describe("the read pipeline's fingerprint", () => {
  it("moves when any rule table of the read seam changes, and comes back when it is restored", () => {
    const base = defaultReadCanonical().fingerprint;
    expect(base).toMatch(/^[0-9a-f]{64}$/);
    const tables: [string, () => () => void][] = [
      ["PII placeholders", () => { const p = PLACEHOLDERS as Record<string, string>; const k = Object.keys(p)[0]; const old = p[k]; p[k] = "[gone]"; return () => { p[k] = old; }; }],
      ["invisible ranges", () => { const a = INVISIBLE_RANGES as [number, number][]; a.push([0x1, 0x1]); return () => void a.pop(); }],
      ["elements removed with content", () => { const a = REMOVED_WITH_CONTENT as unknown as string[]; a.push("x-new"); return () => void a.pop(); }],
      ["removed tags", () => { const a = REMOVED_TAGS as unknown as string[]; a.push("x-new"); return () => void a.pop(); }],
      ["auto-fetch attributes", () => { const a = AUTO_FETCH_ATTRIBUTES as unknown as string[]; a.push("x-new"); return () => void a.pop(); }],
      ["fetching CSS", () => { const a = FETCHING_CSS as unknown as string[]; a.push("x-new("); return () => void a.pop(); }],
      ["sentinel literals", () => { const a = SENTINEL_LITERALS as unknown as string[]; a.push("[X-NEW]"); return () => void a.pop(); }],
    ];
    for (const [name, change] of tables) {
      const restore = change();
      try {
        expect(defaultReadCanonical().fingerprint, name).not.toBe(base);
      } finally {
        restore();
      }
      expect(defaultReadCanonical().fingerprint, name).toBe(base);
    }
  });

  it("a widened pipeline applies its step to a fixed point and shows the reviewer that form", () => {
    // One "ab" removed per pass: "aabb" needs two passes, "aaabbb" three.
    const once = { name: "strip_one_ab", rules: "ab once", apply: (s: string) => s.replace("ab", "") };
    const widened = widenReadCanonical(defaultReadCanonical(), once);
    expect(widened.apply("aabb")).toBe("");
    expect(widened.apply("xaaabbby")).toBe("xy");
    expect(widened.apply("clean")).toBe("clean");
    // The base pipeline runs under the step: the zero-width space goes too.
    expect(widened.apply("a\u200bb")).toBe("");
    const other = widenReadCanonical(defaultReadCanonical(), { ...once, rules: "ab once, v2" });
    expect(other.fingerprint).not.toBe(widened.fingerprint);
    expect(widenReadCanonical(defaultReadCanonical(), { ...once, name: "renamed" }).fingerprint).not.toBe(widened.fingerprint);
  });
});
