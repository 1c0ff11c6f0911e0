/**
 * The text-field rule (docs/limits.md "Text fields"): NUL and lone
 * surrogates are refused with 400 naming the field at every door, and an
 * export never fails whole because of one bad row. The defect: a remember of
 * `left\u0000right` answered 200 `created`, the chunk read back as `left`
 * while the content hash covered the whole text, so `GET /ump/memory/{id}`
 * answered 500 `signature_invalid` and `GET /export?format=ump` answered 500
 * for the whole store; a channel-out draft `"A.\u0000 hidden"` was shown to
 * the reviewer and drained as `"A."`.
 */
import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { cairnInProcess } from "../_helpers/cli.ts";
import { as, crmCase, signed, workflowEnv } from "../workflow/_setup.ts";

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});
const admin = as(["admin"]);
/** A workflow-configured memory whose `req` sends the admin bearer unless the call brings its own credential. */
async function open(extra: Record<string, string> = {}): Promise<TestMemory> {
  const dir = tempDir();
  const m = await openTestMemory({ CAIRN_EMBED_KIND: "none", ...workflowEnv(dir, extra) }, {}, dir);
  const raw = m.req;
  m.req = (method, path, body, headers = {}, peer) =>
    raw(method, path, body, headers.authorization || headers["webhook-signature"] ? headers : { ...admin, ...headers }, peer);
  t = m;
  return m;
}
const rec = (text: string) => ({ ump: "1.0", kind: "semantic", body: { text } });
const op = as(["workflow-operator"]);

async function refusedWith(res: Response, code: string, field: string): Promise<void> {
  expect(res.status, `${field}: ${res.status}`).toBe(400);
  const body = await res.json() as { error: { code: string; details?: { field?: string } } };
  expect(body.error.code).toBe(code);
  expect(body.error.details?.field).toBe(field);
}

describe("the remember → get → export sequence of the report", () => {
  it("POST /ump/remember with a NUL in body.text is 400 naming body.text; nothing is stored and the export still answers", async () => {
    const m = await open();
    await refusedWith(await m.req("POST", "/ump/remember", JSON.stringify(rec("left\u0000right"))), "invalid_request", "body.text");
    await refusedWith(await m.req("POST", "/ump/remember", '{"ump":"1.0","kind":"semantic","body":{"text":"left\\ud800right"}}'), "invalid_unicode", "body.text");
    expect((await m.memory.stats()).docs).toBe(0);
    const ok = await m.req("POST", "/ump/remember", rec("left right"));
    expect(ok.status).toBe(200);
    const exp = await m.req("GET", "/export?format=ump");
    expect(exp.status).toBe(200);
    expect((await exp.json()).records).toHaveLength(1);
  });
});

describe("an export with one bad legacy row", () => {
  async function withLegacyRow(m: TestMemory): Promise<{ bad: string; badChunk: number; good: string }> {
    const good = (await (await m.req("POST", "/ump/remember", rec("a good record about the ridge"))).json()).id as string;
    const bad = (await (await m.req("POST", "/ump/remember", rec("left right"))).json()).id as string;
    const row = (await m.memory.db.client.execute({ sql: "SELECT chunk_id FROM ump_records WHERE id = ?", args: [bad] })).rows[0];
    const badChunk = Number(row!.chunk_id);
    // What the old door stored: the text with a NUL, read back cut at it, so the record's hash no longer matches.
    await m.memory.db.client.execute({ sql: "UPDATE chunks SET content = ? WHERE id = ?", args: ["left\u0000right", badChunk] });
    return { bad, badChunk, good };
  }

  it("GET /export?format=ump answers 200 with every other record and names the bad one in skipped", async () => {
    const m = await open();
    const { bad, good } = await withLegacyRow(m);
    const res = await m.req("GET", "/export?format=ump");
    expect(res.status).toBe(200);
    const env = await res.json() as { records: { id: string }[]; skipped?: { id: string; reason: string }[] };
    expect(env.records.map((r) => r.id)).toEqual([good]);
    expect(env.skipped).toEqual([{ id: bad, reason: expect.stringMatching(/hash_mismatch|signature_invalid|nul/) }]);
    expect(res.headers.get("x-cairn-export-skipped")).toBe("1");
  });

  it("GET /export?format=ump-md answers 200 with the other records and the skipped count and ids in headers", async () => {
    const m = await open();
    const { bad, good } = await withLegacyRow(m);
    const res = await m.req("GET", "/export?format=ump-md");
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain(good);
    expect(text).not.toContain(bad);
    expect(res.headers.get("x-cairn-export-skipped")).toBe("1");
    expect(res.headers.get("x-cairn-export-skipped-ids")).toBe(bad);
  });

  it("check-consistency names the bad row; cairn ump export writes the rest and says which record it skipped", async () => {
    const m = await open();
    const { bad, badChunk } = await withLegacyRow(m);
    const r = await m.memory.checkConsistency();
    const nul = r.checks.find((c) => c.name === "stored_text_nul");
    expect(nul).toMatchObject({ ok: false, count: 1, sample: [badChunk] });
    expect(nul?.detail).toContain(`chunks.content ${badChunk}`);
    const unreadable = r.checks.find((c) => c.name === "ump_record_unverifiable");
    expect(unreadable).toMatchObject({ ok: false, count: 1 });
    expect(unreadable?.detail).toContain(bad);
    // The CLI opens the same store file as a user would, once the server has let go of it.
    await m.memory.close();
    const out = `${tempDir()}/out.json`;
    const cli = await cairnInProcess(["ump", "export", "--format", "ump", "--out", out], { CAIRN_DB_PATH: m.dbPath });
    rmSync(m.dir, { recursive: true, force: true });
    t = undefined;
    expect(cli.stdout).toContain("Exported 1 records");
    expect(cli.stderr).toContain(bad);
    expect(cli.code).toBe(1);
  });
});

describe("the rule at the other doors", () => {
  it("a channel-out draft with a NUL is refused before the reviewer sees it", async () => {
    const m = await open();
    const run = (await m.memory.workflow.applyCase(crmCase("5"), { origin: "operator" })).run.id;
    await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:5", origin: "operator", channel: { kind: "signal", conversation_ref: "u:c5" } } });
    await refusedWith(await m.req("POST", `/workflow/runs/${run}/channel-out`, { text: "A.\u0000 hidden" }, op), "invalid_request", "text");
    expect(await m.memory.review.list({ status: "pending" })).toHaveLength(0);
  });

  it("an approved channel-out row holding a NUL (a legacy row) is never drained, and check-consistency names it", async () => {
    const m = await open();
    const run = (await m.memory.workflow.applyCase(crmCase("6"), { origin: "operator" })).run.id;
    await m.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:6", origin: "operator", channel: { kind: "signal", conversation_ref: "u:c6" } } });
    const draft = await (await m.req("POST", `/workflow/runs/${run}/channel-out`, { text: "A. hidden" }, op)).json();
    const p = await m.memory.review.get(draft.proposal_id);
    expect((await m.req("POST", `/proposals/${draft.proposal_id}/approve?digest=${p!.content_digest}`)).status).toBe(200);
    await m.memory.db.client.execute({ sql: "UPDATE channel_out SET text = ? WHERE proposal_id = ?", args: ["A.\u0000 hidden", draft.proposal_id] });
    const drained = await (await m.req("POST", "/webhooks/channel/signal/drain", "{}", await signed("{}"))).json();
    expect(drained.envelopes).toEqual([]);
    const nul = (await m.memory.checkConsistency()).checks.find((c) => c.name === "stored_text_nul");
    expect(nul?.detail).toMatch(/^channel_out\.text \d+$/);
  });

  it("a signed channel inbound message with a NUL or a lone surrogate is 400 naming envelope.text", async () => {
    const m = await open();
    for (const [text, code] of [["hi\u0000there", "invalid_request"], ["hi\ud800there", "invalid_unicode"]] as const) {
      const body = JSON.stringify({ envelope: { conversation_ref: "u:c1", text, external_id: `e-${code}` } });
      await refusedWith(await m.req("POST", "/webhooks/channel/signal", body, await signed(body)), code, "envelope.text");
    }
    expect(await m.memory.review.list({ status: "pending" })).toHaveLength(0);
  });

  it("query strings and member names are covered too", async () => {
    const m = await open();
    await refusedWith(await m.req("GET", "/proposals?status=pen%00ding"), "invalid_request", "query.status");
    await refusedWith(await m.req("POST", "/ingest", { title: "t", content: "c", ["x\u0000"]: 1 }), "invalid_request", "(key)");
  });

  it("a batch door keeps per-item answers: one NUL entry is rejected naming its field, the others are written", async () => {
    const m = await open();
    const mem = await (await m.req("POST", "/ingest/memory", { entries: ["a clean entry about cairns", { content: "x\u0000y" }] })).json();
    expect(mem.created).toBe(1);
    expect(mem.results[1]).toMatchObject({ status: "rejected", error: { code: "invalid_request" } });
    const ump = await (await m.req("POST", "/ingest?format=ump", { ump: "1.0", records: [rec("fine record one"), { ...rec("ok"), title: "t\u0000" }] })).json();
    expect(ump.results.map((r: { result: string }) => r.result)).toEqual(["created", "rejected"]);
    expect(ump.results[1].error).toMatchObject({ code: "invalid_request", details: { field: "records[1].title" } });
  });

  it("the UMP markdown import and a YAML escape in front matter follow the rule", async () => {
    const m = await open();
    const md = '---\nkind: semantic\ntitle: "nul \\0 here"\n---\nbody\n';
    const res = await m.req("POST", "/ingest?format=ump-md", md, { "content-type": "text/markdown" });
    await refusedWith(res, "invalid_request", "records[0].title");
    const note = '---\ntitle: "a \\ud800 b"\n---\n# H\n\ntext\n';
    await refusedWith(await m.req("POST", "/ingest/markdown", { title: "t", content: note }), "invalid_unicode", "frontmatter.title");
  });
});
