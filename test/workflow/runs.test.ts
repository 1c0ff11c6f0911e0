/** Governed runs (SPEC §3, §4.11, §6): opening and reuse, case envelopes, the close gate, illegal transitions, re-asks, SLA clocks, status references and the solve signal. */
import { afterEach, describe, expect, it } from "vitest";
import { STATUS_WORDS } from "../../src/workflow/status-document.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { as, crmCase, signed, subject, workflowEnv } from "./_setup.ts";

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
let nowMs = Date.parse("2026-11-25T10:00:00Z");
async function open(extra: Record<string, string> = {}): Promise<TestMemory> {
  const dir = tempDir();
  nowMs = Date.parse("2026-11-25T10:00:00Z");
  t = await openTestMemory(workflowEnv(dir, extra), { clock: () => new Date(nowMs) }, dir);
  return t;
}
const op = as(["workflow-operator"]);
const admin = as(["admin"]);
const life = (m: TestMemory, run: number, action: string) => m.req("POST", `/workflow/runs/${run}/complaint/lifecycle`, { action }, op);

describe("opening runs", () => {
  it("opens a run once per case_ref and reuses it; refuses a malformed state_json with 400", async () => {
    const m = await open();
    const body = { state_json: { case_ref: "crm:freshdesk:org1:77", origin: "operator" } };
    const a = await m.req("POST", "/workflow/runs", body, op);
    expect(a.status).toBe(201);
    const b = await m.req("POST", "/workflow/runs", body, op);
    expect(b.status).toBe(200);
    expect((await b.json()).run.id).toBe((await a.json()).run.id);
    for (const bad of [{}, { state_json: { origin: "operator" } }, { state_json: { case_ref: "ticket-77", origin: "operator" } }, { state_json: { case_ref: "crm:x:o:1", origin: "Operator!" } }]) {
      const res = await m.req("POST", "/workflow/runs", bad, op);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("invalid_request");
    }
    expect((await m.req("GET", "/workflow/runs/999", undefined, op)).status).toBe(404);
    expect((await m.req("GET", "/workflow/runs/abc", undefined, op)).status).toBe(400);
  });

  it("refuses case envelopes that could carry personal data or a wrong case_ref with 400 case_invalid naming the field", async () => {
    const m = await open();
    for (const [over, fieldName] of [
      [{ subject_ref: "jane.doe@example.com" }, "subject_ref"], [{ case_ref: "crm:zendesk:acme:other" }, "case_ref"],
      [{ status: "pending" }, "status"], [{ status: "merged_away" }, "merged_into"], [{ merged_into: "12" }, "merged_into"], [{ title: "" }, "title"],
    ] as const) {
      const res = await m.req("POST", "/workflow/cases", { case: crmCase("1", over) }, op);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error: { code: "case_invalid", details: { field: fieldName } } });
    }
    expect(await m.memory.workflow.events({})).toEqual([]);
  });
});

describe("the complaint lifecycle close gate and transitions", () => {
  it("refuses closed_solved without confirmation (409 close_gate_unmet), allows the three-attempt exception, and an inbound answer resets the count", async () => {
    const m = await open();
    const run = (await m.memory.workflow.applyCase(crmCase("1"), { origin: "operator" })).run.id;
    await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:1", origin: "operator", channel: { kind: "signal", conversation_ref: "u:c1" } } });
    const unmet = await life(m, run, "closed_solved");
    expect(unmet.status).toBe(409);
    expect(await unmet.json()).toMatchObject({ error: { code: "close_gate_unmet", details: { unanswered_attempts: 0, required_attempts: 3 } } });
    await life(m, run, "contact_attempt");
    await life(m, run, "contact_attempt");
    // The customer answers: earlier attempts no longer count as unanswered.
    const b = JSON.stringify({ envelope: { conversation_ref: "u:c1", text: "sorry, was away", external_id: "x1" } });
    expect((await m.req("POST", "/webhooks/channel/signal", b, await signed(b))).status).toBe(200);
    await life(m, run, "contact_attempt");
    expect((await (await life(m, run, "closed_solved")).json()).error.details.unanswered_attempts).toBe(1);
    await life(m, run, "contact_attempt");
    await life(m, run, "contact_attempt");
    const closed = await life(m, run, "closed_solved");
    expect(closed.status).toBe(200);
    expect(await closed.json()).toMatchObject({ run: { state: "closed_solved" }, event: { type: "run/transition" } });
    const last = (await m.memory.workflow.getRun(run)).events.at(-1)!;
    expect(last.payload).toMatchObject({ from: "open", to: "closed_solved", proof: "three_attempts" });
    // Closed: a second close, an attempt, or a merge without a vendor merge are refused.
    expect((await (await life(m, run, "closed_solved")).json()).error.code).toBe("illegal_transition");
    expect((await (await life(m, run, "contact_attempt")).json()).error.code).toBe("run_not_active");
    expect((await (await life(m, run, "merged_away")).json()).error.code).toBe("merge_not_seen");
    // Reopen works from closed only; the gate counts afresh after it.
    expect((await (await life(m, run, "reopened")).json()).run).toMatchObject({ state: "open", reopened: 1 });
    expect((await (await life(m, run, "reopened")).json()).error).toMatchObject({ code: "illegal_transition", details: { from: "open", to: "open" } });
    expect((await life(m, run, "closed_solved")).status).toBe(409);
    expect((await life(m, run, "bogus")).status).toBe(400);
  });

  it("follows a vendor merge to merged_away (crm/case/closed) and then refuses every move out of it", async () => {
    const m = await open();
    const run = (await m.memory.workflow.applyCase(crmCase("2"), { origin: "connector:zendesk" })).run.id;
    const merged = await m.memory.workflow.applyCase(crmCase("2", { status: "merged_away", merged_into: "1", updated_rev: "2" }), { origin: "connector:zendesk" });
    expect(merged).toMatchObject({ event: { type: "crm/case/closed" }, run: { state: "merged_away" } });
    for (const a of ["reopened", "closed_solved", "merged_away"]) expect((await life(m, run, a)).status).toBe(409);
    const before = (await m.memory.workflow.events({})).length;
    const reopen = await m.req("POST", "/workflow/cases", { case: crmCase("2", { status: "open", updated_rev: "3" }) }, op);
    expect(reopen.status).toBe(409);
    // Nothing half-written: no event, no audit row, the revision is not recorded.
    expect((await m.memory.workflow.events({})).length).toBe(before);
    expect((await m.memory.workflow.getRun(run)).case).toMatchObject({ updated_rev: "2" });
    expect((await m.memory.audit.verify()).ok).toBe(true);
    expect(await reopen.json()).toMatchObject({ error: { code: "illegal_transition", details: { from: "merged_away", to: "open" } } });
    expect((await m.memory.workflow.getRun(run)).state).toBe("merged_away");
  });

  it("records a vendor close without confirmation but keeps the run open (close_gate unmet), and a vendor reopen reopens a closed run", async () => {
    const m = await open();
    const closedByVendor = await m.memory.workflow.applyCase(crmCase("3", { status: "closed_solved" }), { origin: "connector:zendesk" });
    expect(closedByVendor).toMatchObject({ close_gate: "unmet", event: { type: "crm/case/closed" }, run: { state: "open" } });
    const run = closedByVendor.run.id;
    await life(m, run, "customer_confirmed");
    expect((await m.memory.workflow.applyCase(crmCase("3", { status: "closed_solved", updated_rev: "2" }), { origin: "connector:zendesk" })).run.state).toBe("closed_solved");
    const re = await m.memory.workflow.applyCase(crmCase("3", { status: "open", reopened: true, updated_rev: "3" }), { origin: "connector:zendesk" });
    expect(re.run).toMatchObject({ state: "open", reopened: 1 });
  });
});

describe("re-asks (SPEC §6)", () => {
  it("files case_merge_suggested inside the window only, emits case/reask with source crm_merge on approval of a merge, and nothing on rejection", async () => {
    const m = await open({ CAIRN_REASK_WINDOW_DAYS: "7" });
    const first = (await m.memory.workflow.applyCase(crmCase("10"), { origin: "connector:zendesk" })).run.id;
    await life(m, first, "customer_confirmed");
    await life(m, first, "closed_solved");
    // Vendor merged the new case into the closed one.
    const merged = await m.memory.workflow.applyCase(crmCase("11", { status: "merged_away", merged_into: "10" }), { origin: "connector:zendesk" });
    const pid = merged.merge_suggestion_proposal_id!;
    const p = await m.memory.review.get(pid);
    expect(p.content).not.toContain(subject("jane.doe@example.com"));
    const ok = await (await m.req("POST", `/proposals/${pid}/approve?digest=${p.content_digest}`, undefined, admin)).json();
    expect(ok.effect).toMatchObject({ reask: true, source: "crm_merge", run_id: merged.run.id });
    // Another subject match, rejected: no re-ask.
    const other = await m.memory.workflow.applyCase(crmCase("12"), { origin: "connector:zendesk" });
    expect((await m.req("POST", `/proposals/${other.merge_suggestion_proposal_id}/reject`, {}, admin)).status).toBe(200);
    expect((await m.memory.workflow.getRun(other.run.id)).events.map((e) => e.type)).not.toContain("case/reask");
    // One question per case: the vendor merging case 12 later files no second suggestion.
    const later = await m.memory.workflow.applyCase(crmCase("12", { status: "merged_away", merged_into: "10", updated_rev: "2" }), { origin: "connector:zendesk" });
    expect(later.run.state).toBe("merged_away");
    expect(later.merge_suggestion_proposal_id).toBeUndefined();
    // Eight days later the window (7) has passed: no suggestion.
    nowMs += 8 * 86_400_000;
    expect((await m.memory.workflow.applyCase(crmCase("13"), { origin: "connector:zendesk" })).merge_suggestion_proposal_id).toBeUndefined();
  });
});

describe("the re-ask's source follows a vendor merge that arrives later (SPEC §6)", () => {
  it("labels the re-ask crm_merge when the merge arrives after the suggestion was filed, before or after its approval", async () => {
    const m = await open({ CAIRN_REASK_WINDOW_DAYS: "7" });
    const first = (await m.memory.workflow.applyCase(crmCase("10"), { origin: "connector:zendesk" })).run.id;
    await life(m, first, "customer_confirmed");
    await life(m, first, "closed_solved");
    const reaskOf = async (run: number) => (await m.memory.workflow.getRun(run)).events.filter((e) => e.type === "case/reask") as Array<{ id: number; payload: Record<string, unknown> }>;

    // Filed on a subject match; the vendor's merge arrives while the suggestion waits for review.
    const pending = await m.memory.workflow.applyCase(crmCase("11"), { origin: "connector:zendesk" });
    const pid = pending.merge_suggestion_proposal_id!;
    expect(pid).toBeDefined();
    const merged = await m.memory.workflow.applyCase(crmCase("11", { status: "merged_away", merged_into: "10", updated_rev: "2" }), { origin: "connector:zendesk" });
    expect(merged.merge_suggestion_proposal_id).toBeUndefined();
    const p = await m.memory.review.get(pid);
    const ok = await (await m.req("POST", `/proposals/${pid}/approve?digest=${p.content_digest}`, undefined, admin)).json();
    expect(ok.effect).toMatchObject({ reask: true, source: "crm_merge", run_id: pending.run.id });
    expect((await reaskOf(pending.run.id)).map((e) => e.payload.source)).toEqual(["crm_merge"]);

    // Approved on a subject match first; the merge arrives afterwards: the event's source is updated, audited.
    const early = await m.memory.workflow.applyCase(crmCase("12"), { origin: "connector:zendesk" });
    const p2 = await m.memory.review.get(early.merge_suggestion_proposal_id!);
    const ok2 = await (await m.req("POST", `/proposals/${p2.id}/approve?digest=${p2.content_digest}`, undefined, admin)).json();
    expect(ok2.effect).toMatchObject({ reask: true, source: "subject_match" });
    await m.memory.workflow.applyCase(crmCase("12", { status: "merged_away", merged_into: "10", updated_rev: "2" }), { origin: "connector:zendesk" });
    const after = await reaskOf(early.run.id);
    expect(after).toHaveLength(1);
    expect(after[0]!.payload.source).toBe("crm_merge");
    const amended = (await m.memory.audit.list({ action: "workflow_event_amended" })).rows;
    expect(amended.map((r) => r.detail)).toEqual([expect.objectContaining({ event_id: after[0]!.id, field: "source", from: "subject_match", to: "crm_merge" })]);
    expect((await m.memory.audit.verify()).ok).toBe(true);

    // A merge into some other case than the matched one changes nothing.
    const third = await m.memory.workflow.applyCase(crmCase("13"), { origin: "connector:zendesk" });
    await m.memory.workflow.applyCase(crmCase("13", { status: "merged_away", merged_into: "99", updated_rev: "2" }), { origin: "connector:zendesk" });
    const p3 = await m.memory.review.get(third.merge_suggestion_proposal_id!);
    const ok3 = await (await m.req("POST", `/proposals/${p3.id}/approve?digest=${p3.content_digest}`, undefined, admin)).json();
    expect(ok3.effect.source).toBe("subject_match");
  });
});

describe("SLA clocks, status references and the solve signal", () => {
  it("emits valet/due once when the SLA clock runs out, and the status document shows delayed", async () => {
    const m = await open();
    const run = (await m.memory.workflow.applyCase(crmCase("20", { priority: "High" }), { origin: "connector:zendesk" })).run.id;
    expect(await m.memory.workflow.sweepDue()).toEqual([]);
    nowMs += 25 * 3_600_000;
    expect((await m.memory.workflow.sweepDue()).map((e) => e.type)).toEqual(["valet/due"]);
    expect(await m.memory.workflow.sweepDue()).toEqual([]);
    // (The service directly: the test clock is a day ahead of the JWT's expiry.)
    const minted = await m.memory.workflow.mintStatusRef(run, { action: "mint" });
    expect(minted.document.status).toBe("delayed");
    expect((await m.memory.workflow.getRun(run)).signals).toMatchObject({ valet_due: true });
  });

  it("mints unguessable status references whose document has four closed-vocabulary fields and leaks no personal data, deadline or name", async () => {
    const m = await open();
    const c = crmCase("30", { title: "Jane Doe (jane.doe@example.com, +44 7700 900123) cannot log in", priority: "urgent", body_markdown: "Jane at 12 Rose Street" });
    const run = (await m.memory.workflow.applyCase(c, { origin: "connector:zendesk" })).run;
    await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:30", origin: "operator", channel: { kind: "signal", conversation_ref: "+447700900123" } } });
    await m.memory.workflow.note(run.id, "Spoke to Jane Doe, promised a fix by Friday 2026-11-27");
    const a = await (await m.req("POST", `/workflow/runs/${run.id}/status-ref`, { action: "mint" }, op)).json();
    const b = await (await m.req("POST", `/workflow/runs/${run.id}/status-ref`, { action: "mint" }, op)).json();
    expect(a.ref).not.toBe(b.ref);
    expect(a.ref).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
    expect(Object.keys(a.document).sort()).toEqual(["build", "promise", "sentence", "status"]);
    expect(STATUS_WORDS).toContain(a.document.status);
    expect(a.document.promise).toBe("within_hours");
    const text = JSON.stringify(a.document);
    // No date at all (the build stamp is a version and a build number), so no deadline can hide in it.
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    for (const leak of ["Jane", "jane", "Doe", "example.com", "7700", "Rose", "acme", "zendesk", "30", "Friday", "2026-11-27", run.due_at.slice(0, 10), subject("jane.doe@example.com").slice(0, 12)]) {
      expect(text, leak).not.toContain(leak);
    }
    expect(await m.memory.workflow.statusDocument(a.ref)).toEqual(a.document);
    await expect(m.memory.workflow.statusDocument("cs_unknown")).rejects.toMatchObject({ code: "not_found" });
    expect((await m.req("POST", `/workflow/runs/${run.id}/status-ref`, { action: "list" }, op)).status).toBe(400);
  });

  it("feeds the solve signal when recall serves knowledge promoted from a case body", async () => {
    const m = await open();
    const applied = await m.memory.workflow.applyCase(crmCase("40", { body_markdown: "Resetting the fibre modem clears the evening packet loss on the Zephyr router." }), { origin: "connector:zendesk" });
    const p = await m.memory.review.get(applied.body_proposal_id!);
    expect((await m.req("POST", `/proposals/${p.id}/approve?digest=${p.content_digest}`, undefined, admin)).status).toBe(200);
    expect((await m.memory.workflow.getRun(applied.run.id)).signals!.solve_lookups).toBe(0);
    const r = await (await m.req("POST", "/recall", { query: "Zephyr router evening packet loss" }, admin)).json();
    expect(r.hits.length).toBeGreaterThan(0);
    expect((await m.memory.workflow.getRun(applied.run.id)).signals!.solve_lookups).toBe(1);
  });
});
