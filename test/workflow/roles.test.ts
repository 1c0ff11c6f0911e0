/** SPEC §5 item 3: the workflow-operator role may act on every workflow surface; the agent role is refused on each (403), route by route. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSubject } from "../../src/authz/subject-hash.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { as, BRIDGE_SHA, crmCase, signed, workflowEnv } from "./_setup.ts";

let t: TestMemory;
let runId: number;
beforeAll(async () => {
  const dir = tempDir();
  t = await openTestMemory(workflowEnv(dir), {}, dir);
  const r = await t.memory.workflow.applyCase(crmCase("1"), { origin: "connector:zendesk" });
  runId = r.run.id;
  await t.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:1", origin: "operator", channel: { kind: "signal", conversation_ref: "u:c1" } } });
});
afterAll(async () => {
  await t?.close();
});

// Every workflow route with a body the operator may send; `ok` is the operator's expected status.
const ROUTES = (): { method: string; path: string; body?: unknown; ok: number }[] => [
  { method: "POST", path: "/workflow/runs", body: { state_json: { case_ref: "crm:zendesk:acme:2", origin: "operator" } }, ok: 201 },
  { method: "GET", path: `/workflow/runs/${runId}`, ok: 200 },
  { method: "POST", path: `/workflow/runs/${runId}/complaint/lifecycle`, body: { action: "contact_attempt" }, ok: 200 },
  { method: "POST", path: `/workflow/runs/${runId}/status-ref`, body: { action: "mint" }, ok: 200 },
  { method: "POST", path: `/workflow/runs/${runId}/channel-out`, body: { text: "We are on it." }, ok: 201 },
  { method: "POST", path: `/workflow/runs/${runId}/notes`, body: { text: "Called the depot." }, ok: 201 },
  { method: "POST", path: "/workflow/cases", body: { case: crmCase("3") }, ok: 200 },
  { method: "POST", path: "/workflow/plugins/mount", body: { plugin: "signal-gateway", kind: "signal", evidence: { bridge_config_sha256: BRIDGE_SHA } }, ok: 201 },
  { method: "GET", path: "/workflow/events", ok: 200 },
];

describe("workflow surfaces and roles", () => {
  it("refuses the agent role with 403 agent_refused_workflow on every workflow route, even beside admin, and audits each refusal", async () => {
    for (const roles of [["agent"], ["agent", "admin"], ["agent", "workflow-operator"]]) {
      for (const r of ROUTES()) {
        const res = await t.req(r.method, r.path, r.body, as(roles, "bot-7"));
        expect(res.status, `${r.method} ${r.path} as ${roles.join("+")}`).toBe(403);
        expect((await res.json()).error).toMatchObject({ code: "forbidden", details: { reason: "agent_refused_workflow" } });
      }
    }
    const refusals = (await t.memory.audit.list({ action: "authz_refused", limit: 1000 })).rows.filter((r) => r.actor === hashSubject("bot-7"));
    expect(refusals).toHaveLength(3 * ROUTES().length);
  });

  it("refuses an agent bearer on both channel webhooks (403), and any caller without a signature (401)", async () => {
    const body = JSON.stringify({ envelope: { conversation_ref: "u:c1", text: "hello", external_id: "e-agent" } });
    for (const path of ["/webhooks/channel/signal", "/webhooks/channel/signal/drain"]) {
      const res = await t.req("POST", path, body, as(["agent"]));
      expect(res.status).toBe(403);
      expect((await res.json()).error.details.reason).toBe("agent_refused_workflow");
      expect((await t.req("POST", path, body)).status).toBe(401);
    }
    // With the signature, the same request passes: the signature is the channel credential.
    expect((await t.req("POST", "/webhooks/channel/signal", body, await signed(body))).status).toBe(200);
  });

  it("lets a workflow operator act on every workflow route, and refuses reader and writer", async () => {
    for (const r of ROUTES()) {
      const res = await t.req(r.method, r.path, r.body, as(["workflow-operator"]));
      expect(res.status, `${r.method} ${r.path}: ${await res.clone().text()}`).toBe(r.ok);
    }
    for (const roles of [["reader"], ["writer"]]) {
      const res = await t.req("GET", `/workflow/runs/${runId}`, undefined, as(roles));
      expect(res.status).toBe(403);
      expect((await res.json()).error.details.reason).toBe("role_missing");
    }
  });
});
