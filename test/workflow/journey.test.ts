/**
 * The acceptance journey of issue 16 over real loopback HTTP: a case arrives from a connector sync, opens a run, an
 * inbound channel message is filed, an operator drafts a reply, a human approves it, the drain hands it out, the
 * customer confirms, the case closes closed_solved; a second case of the same subject inside the window files a merge
 * suggestion whose approval emits case/reask. Every event has its audit row and the chain verifies.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";
import { as, crmCase, signed, workflowEnv } from "./_setup.ts";

let booted: BootedServer;
let base: string;
beforeAll(async () => {
  booted = await bootServer(workflowEnv(tempDir()), 0);
  base = `http://127.0.0.1:${booted.server.port}`;
});
afterAll(async () => {
  await booted?.close();
});

const op = as(["workflow-operator"], "op@example.org");
const admin = as(["admin"], "reviewer@example.org");

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: any }> {
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const res = await fetch(base + path, { method, headers: text === undefined ? headers : { "content-type": "application/json", ...headers }, body: text });
  return { status: res.status, json: await res.json() };
}

async function inbound(text: string, externalId: string) {
  const body = JSON.stringify({ envelope: { conversation_ref: "u:5f0c2a4e-1111-4222-8333-944455556666", text, external_id: externalId } });
  return call("POST", "/webhooks/channel/signal", body, await signed(body));
}

async function approve(proposalId: number) {
  const p = await call("GET", `/proposals/${proposalId}`, undefined, admin);
  expect(p.status).toBe(200);
  return call("POST", `/proposals/${proposalId}/approve?digest=${p.json.content_digest}`, undefined, admin);
}

describe("case governance journey over real HTTP", () => {
  it("runs a case from connector sync to closed_solved, then turns a re-ask into case/reask on approval", async () => {
    // 1. A connector sync hands a CrmCase to the service it calls.
    const applied = await booted.memory.workflow.applyCase(crmCase("4711"), { origin: "connector:zendesk" });
    expect(applied).toMatchObject({ status: "applied", created: true, event: { type: "crm/case/updated" }, run: { state: "open", sla_class: "high" } });
    const runId = applied.run.id;
    // The same revision again changes nothing.
    expect((await booted.memory.workflow.applyCase(crmCase("4711"), { origin: "connector:zendesk" })).status).toBe("unchanged");

    // 2. The operator reuses the run (same case → same run) and binds the customer's conversation.
    const reused = await call("POST", "/workflow/runs", {
      state_json: { case_ref: "crm:zendesk:acme:4711", origin: "operator", channel: { kind: "signal", conversation_ref: "u:5f0c2a4e-1111-4222-8333-944455556666" } },
    }, op);
    expect(reused.status).toBe(200);
    expect(reused.json).toMatchObject({ reused: true, run: { id: runId, channel: { kind: "signal" } } });

    // 3. An inbound channel message is filed as a case note on the run, never as memory.
    const msg = await inbound("Hi, my router still drops every evening.", "u:5f0c2a4e:1732530000001");
    expect(msg.status).toBe(200);
    expect(msg.json).toMatchObject({ status: "noted", run_id: runId, verdict: "clean" });

    // 4. The operator drafts a reply; it waits in the review gate and the drain does not see it.
    const draft = await call("POST", `/workflow/runs/${runId}/channel-out`, { text: "Thanks, we pushed a firmware fix; please restart the router." }, op);
    expect(draft.status).toBe(201);
    const early = JSON.stringify({});
    expect((await call("POST", "/webhooks/channel/signal/drain", early, await signed(early))).json.envelopes).toEqual([]);

    // 5. A human approves it through the review gate (digest-bound); nothing is promoted to memory.
    const approved = await approve(draft.json.proposal_id);
    expect(approved.status).toBe(200);
    expect(approved.json).toMatchObject({ status: "approved", promoted_chunk_id: null, effect: { envelope_id: draft.json.envelope_id, status: "approved" } });

    // 6. The drain hands it out once, marked delivered; a retry of the same delivery gets the same batch.
    const drainBody = JSON.stringify({ limit: 10 });
    const headers = await signed(drainBody);
    const drained = await call("POST", "/webhooks/channel/signal/drain", drainBody, headers);
    expect(drained.status).toBe(200);
    expect(drained.json.envelopes).toHaveLength(1);
    expect(drained.json.envelopes[0]).toMatchObject({ id: draft.json.envelope_id, run_id: runId, text: "Thanks, we pushed a firmware fix; please restart the router." });
    expect((await call("POST", "/webhooks/channel/signal/drain", drainBody, headers)).json).toMatchObject({ redelivered: true, envelopes: [{ id: draft.json.envelope_id }] });
    expect((await call("POST", "/webhooks/channel/signal/drain", drainBody, await signed(drainBody))).json.envelopes).toEqual([]);
    expect((await call("GET", `/workflow/runs/${runId}`, undefined, op)).json.state).toBe("waiting_customer");

    // 7. The customer confirms; the operator records it and closes through the gate.
    expect((await inbound("Yes, that fixed it, thank you!", "u:5f0c2a4e:1732530000002")).json.status).toBe("noted");
    const confirmed = await call("POST", `/workflow/runs/${runId}/complaint/lifecycle`, { action: "customer_confirmed" }, op);
    expect(confirmed.json.event.type).toBe("customer/feedback");
    const closed = await call("POST", `/workflow/runs/${runId}/complaint/lifecycle`, { action: "closed_solved" }, op);
    expect(closed.status).toBe(200);
    expect(closed.json.run).toMatchObject({ state: "closed_solved", signals: { deflection_proof: true, inbound: 2, delivered_replies: 1 } });

    // 8. A second case of the same subject inside the window files a merge suggestion; nothing is emitted yet.
    const second = await call("POST", "/workflow/cases", { case: crmCase("4712", { title: "Router drops again" }) }, op);
    expect(second.status).toBe(200);
    expect(second.json.merge_suggestion_proposal_id).toBeGreaterThan(0);
    const run2 = second.json.run.id;
    const before = await call("GET", `/workflow/runs/${run2}`, undefined, op);
    expect(before.json.events.map((e: any) => e.type)).not.toContain("case/reask");

    // 9. A human approves the suggestion: case/reask is emitted on the new run, and the effort proxy counts it twice.
    const reask = await approve(second.json.merge_suggestion_proposal_id);
    expect(reask.json.effect).toMatchObject({ reask: true, run_id: run2, source: "subject_match" });
    const after = await call("GET", `/workflow/runs/${run2}`, undefined, op);
    expect(after.json.events.filter((e: any) => e.type === "case/reask")).toHaveLength(1);
    expect(after.json.signals).toMatchObject({ reasks: 1, effort: 2 });

    // 10. Every event has its hash-chained audit row, and the chain verifies.
    const events = (await call("GET", "/workflow/events?limit=1000", undefined, op)).json.events;
    const types = events.map((e: any) => e.type);
    for (const t of ["run/opened", "crm/case/updated", "channel/in", "channel/out", "customer/feedback", "run/transition", "case/reask"]) expect(types).toContain(t);
    const audit = (await booted.memory.audit.list({ action: "workflow_event", limit: 1000 })).rows;
    const byId = new Map(audit.map((r) => [r.id, r]));
    for (const e of events) {
      const row = byId.get(e.audit_id);
      expect(row?.detail).toMatchObject({ type: e.type, run_id: e.run_id });
    }
    expect((await call("GET", "/audit/verify", undefined, admin)).json).toMatchObject({ ok: true });
    // The channel text never became memory.
    expect((await booted.memory.stats()).docs).toBe(0);
  });
});
