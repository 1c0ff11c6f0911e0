/**
 * A data-subject erasure over the workflow tables (issue 35 finding 7; SPEC §1 item 6, §3 erasure row): a dry run
 * locates and exports without changing anything; an erasure by the customer's phone number unbinds the conversation
 * and forgets the messages that came from it; a failure at the last step rolls the workflow rows back with the rest
 * and issues no certificate.
 */
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { sql } from "../_helpers/sql.ts";
import { as, crmCase, signed, workflowEnv } from "../workflow/_setup.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const op = as(["workflow-operator"]);
const admin = as(["admin"]);
const PHONE = "+447700900456";

/** A run bound to PHONE with a customer message, an operator note naming "Wren Abara" and a drafted reply. */
async function caseWithConversation(m: TestMemory) {
  const run = (await m.memory.workflow.applyCase(crmCase("31", { title: "Mast light of Wren Abara" }), { origin: "operator" })).run.id;
  await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:31", origin: "operator", channel: { kind: "signal", conversation_ref: PHONE } } });
  const body = JSON.stringify({ envelope: { conversation_ref: PHONE, text: "The mast light is out again.", external_id: `${PHONE}:17` } });
  expect((await (await m.req("POST", "/webhooks/channel/signal", body, await signed(body))).json()).status).toBe("noted");
  expect((await m.req("POST", `/workflow/runs/${run}/notes`, { text: "Wren Abara says the fuse was replaced in May." }, op)).status).toBe(201);
  const draft = await (await m.req("POST", `/workflow/runs/${run}/channel-out`, { text: "We will check the mast light tomorrow." }, op)).json();
  return { run, draft };
}

const rows = async (q: string) => JSON.stringify(await sql(t!.dbPath, q));

describe("DSAR over workflow rows", () => {
  it("a dry run counts and exports the located rows and changes nothing", async () => {
    const dir = tempDir();
    t = await openTestMemory(workflowEnv(dir), {}, dir);
    const { run } = await caseWithConversation(t);
    const before = await rows("SELECT * FROM workflow_events ORDER BY id");
    const res = await (await t.req("POST", "/dsar", { match: "wren abara", dry_run: true }, admin)).json();
    expect(res.located.tables).toEqual({ workflow_events: 1, workflow_runs: 1 });
    expect(res.export.workflow_events).toEqual([{ id: expect.any(Number), payload: expect.objectContaining({ text: "Wren Abara says the fuse was replaced in May." }) }]);
    expect(res.export.workflow_runs).toEqual([expect.objectContaining({ id: run, case: expect.objectContaining({ title: "Mast light of Wren Abara" }) })]);
    expect(res.certificate).toBeUndefined();
    expect(await rows("SELECT * FROM workflow_events ORDER BY id")).toBe(before);
  });

  it("by the customer's number: messages from it are forgotten, the run is unbound, and no reply can be drafted to it", async () => {
    const dir = tempDir();
    t = await openTestMemory(workflowEnv(dir), {}, dir);
    const { run, draft } = await caseWithConversation(t);
    const res = await (await t.req("POST", "/dsar", { match: PHONE }, admin)).json();
    expect(res.certificate.erased).toMatchObject({
      proposal_ids: [draft.proposal_id], tables: { channel_messages: 1, channel_out: 1, proposals: 1 }, redacted: { workflow_events: 1, workflow_runs: 1 },
    });
    expect(await rows("SELECT * FROM workflow_runs")).not.toContain(PHONE);
    expect(await rows("SELECT * FROM workflow_events")).not.toContain(PHONE);
    expect(await rows("SELECT * FROM channel_messages")).not.toContain(PHONE);
    const view = await (await t.req("GET", `/workflow/runs/${run}`, undefined, op)).json();
    expect(view.channel).toBeUndefined();
    // The customer's message is kept as an event whose identifying string is erased; its text did not name them.
    const inbound = view.events.find((e: { type: string }) => e.type === "channel/in");
    expect(inbound.payload).toMatchObject({ external_id: "[erased]", text: "The mast light is out again." });
    const again = await t.req("POST", `/workflow/runs/${run}/channel-out`, { text: "Hello?" }, op);
    expect(again.status).toBe(409);
    expect((await again.json()).error.code).toBe("run_unbound");
    expect((await (await t.req("POST", "/dsar/verify", res.certificate, admin)).json()).valid).toBe(true);
  });

  it("rolls the workflow rows back with the rest when the last step fails, and issues no certificate", async () => {
    const dir = tempDir();
    t = await openTestMemory(workflowEnv(dir), {}, dir);
    await caseWithConversation(t);
    const tables = ["workflow_events", "workflow_runs", "channel_out", "channel_messages", "proposals", "audit_log", "erasure_certificates"];
    const snapshot = async () => Object.fromEntries(await Promise.all(tables.map(async (x) => [x, await rows(`SELECT * FROM ${x} ORDER BY 1`)])));
    const before = await snapshot();
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("CREATE TRIGGER fail_certificate BEFORE INSERT ON erasure_certificates BEGIN SELECT RAISE(ABORT, 'injected failure'); END");
    c.close();
    const res = await t.req("POST", "/dsar", { match: PHONE }, admin);
    expect(res.status).toBe(500);
    expect(await snapshot()).toEqual(before);
    expect(await rows("SELECT * FROM workflow_events")).toContain(PHONE);
  });
});
