import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { ingestId, type Json, postJson } from "../_helpers/json-calls.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { sql } from "../_helpers/sql.ts";

// The edges of POST /dsar and POST /purge a caller meets (SPEC §1 item 6, §3 erasure row, §4.4): the shortest subject
// accepted, the order of the lists a reply and a certificate carry, and an erasure that reaches a subject by owner and by
// email at once.

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const post = (path: string, body: unknown) => postJson(t!, path, body);
const ingest = (body: Json) => ingestId(t!, body);
const proposalIds = async () => (await sql(t!.dbPath, "SELECT id FROM proposals ORDER BY id")).map((r) => Number(r.id));

async function approve(id: number) {
  const p = (await (await t!.req("GET", "/proposals?status=pending")).json()).find((x: Json) => x.id === id);
  expect((await t!.req("POST", `/proposals/${id}/approve?digest=${p.content_digest}`)).status).toBe(200);
}

describe("the shortest subject an erasure takes", () => {
  it("erases by an owner of one character, an email of three and a match text of three", async () => {
    t = await openTestMemory();
    const abc = await ingest({ title: "Codes", content: "Locker abc opens with the harbour key." });
    const mail = await ingest({ title: "Mail", content: "Forward the post to a@b please." });
    for (const [subject, erased] of [[{ owner: "o" }, []], [{ email: "a@b" }, [mail]], [{ match: "abc" }, [abc]]] as const) {
      const r = await post("/dsar", subject);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.certificate.erased.chunk_ids).toEqual(erased);
    }
  });

  it("purges by an owner of exactly 256 characters", async () => {
    t = await openTestMemory();
    const owner = `did:key:${"z".repeat(248)}`;
    const p = (await post("/ingest/proposal", { content: "Long-owner winch service note.", owner })).body.id as number;
    await approve(p);
    const keep = await ingest({ title: "Keep", content: "The winch is greased weekly." });
    const r = await post("/purge", { owner });
    expect(r).toMatchObject({ status: 200, body: { purged: 1, proposals_deleted: 1 } });
    expect((await sql(t.dbPath, "SELECT id FROM chunks")).map((x) => Number(x.id))).toEqual([keep]);
  });
});

describe("the order of the lists an erasure reports", () => {
  it("lists a purge's missing ids in ascending order, whatever the order asked", async () => {
    t = await openTestMemory();
    const a = await ingest({ title: "A", content: "Quay 2 has a new bollard." });
    const r = await post("/purge", { ids: [9_998, a, 9_997, 9_999] });
    expect(r.body).toEqual({ purged: 1, ids: [a], proposals_deleted: 0, tables: { chunks: 1 }, missing: [9_997, 9_998, 9_999], audit_id: expect.any(Number) });
  });

  it("erases by owner and email at once: each chunk once, proposals in id order in the export and the certificate", async () => {
    t = await openTestMemory();
    const email = "yara.k@example.com";
    // Filed first, still pending, names the subject by email: the content-match delete takes it.
    const mentioning = (await post("/ingest/proposal", { title: "Yara", content: `Call ${email} about the dinghy.` })).body.id as number;
    // Filed second and owned by the subject; approval promotes it to a chunk the owner purge reaches.
    const owned = (await post("/ingest/proposal", { content: "Dinghy 7 storage is paid to June.", owner: "did:key:yara" })).body.id as number;
    await approve(owned);
    const byEmail = await ingest({ title: "Dinghy rota", content: `Dinghy rota: ${email} on Sundays.` });
    const both = (await post("/ingest/proposal", { content: `Owner contact ${email} for dinghy 8.`, owner: "did:key:yara" })).body.id as number;
    await approve(both);
    const other = await ingest({ title: "Dinghies", content: "Dinghies are craned out in November." });
    const chunkOf = async (p: number) => Number((await sql(t!.dbPath, "SELECT promoted_chunk_id AS c FROM proposals WHERE id = ?", [p]))[0].c);
    const ownedChunk = await chunkOf(owned);
    const bothChunk = await chunkOf(both);
    expect(mentioning).toBeLessThan(owned);

    const dry = (await post("/dsar", { owner: "did:key:yara", email, dry_run: true })).body;
    expect(dry.located).toEqual({ chunks: 3, proposals: 3, tables: {} });
    expect(dry.export.chunks.map((c: Json) => c.id)).toEqual([ownedChunk, byEmail, bothChunk].sort((x, y) => x - y));
    expect(dry.export.proposals.map((p: Json) => p.id)).toEqual([mentioning, owned, both]);

    const cert = (await post("/dsar", { owner: "did:key:yara", email })).body.certificate;
    expect(cert.erased).toMatchObject({ chunk_ids: [ownedChunk, byEmail, bothChunk].sort((x, y) => x - y), proposal_ids: [mentioning, owned, both] });
    expect(await proposalIds()).toEqual([]);
    expect((await sql(t.dbPath, "SELECT id FROM chunks")).map((x) => Number(x.id))).toEqual([other]);
  });

  it("exports an untitled proposal without a title", async () => {
    t = await openTestMemory();
    const p = (await post("/ingest/proposal", { content: "Ask lena.b@example.com about the spare oars." })).body.id as number;
    const out = (await post("/dsar", { email: "lena.b@example.com", dry_run: true })).body;
    expect(out.export.proposals).toEqual([{ id: p, status: "pending", content: "Ask lena.b@example.com about the spare oars.", domain: "global", created_at: expect.any(String) }]);
  });
});

describe("what an erasure cannot change (issue 35)", () => {
  it("rewrites an older hard forget's free-text tombstone reason naming the subject, and no reason Cairn wrote itself", async () => {
    t = await openTestMemory();
    const c = createClient({ url: `file:${t.dbPath}` });
    for (const reason of ["ump_forget: Ruth Okafor asked us to forget", "ump_forget urn:ump:ruthokaforx", "purge"]) {
      await c.execute({ sql: "INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at) VALUES (77, 'global', 'x', ?, 'now')", args: [reason] });
    }
    c.close();
    // "okafor" is in the soft tombstone's record id too: that reason is Cairn's own and stays.
    const cert = (await post("/dsar", { match: "okafor" })).body.certificate;
    expect(cert.erased.redacted).toEqual({ tombstones: 1 });
    expect((await sql(t.dbPath, "SELECT reason FROM tombstones ORDER BY id")).map((r) => r.reason)).toEqual(["ump_forget", "ump_forget urn:ump:ruthokaforx", "purge"]);
    // A match on a word Cairn writes changes nothing.
    expect((await post("/dsar", { match: "purge" })).body.certificate.erased.redacted).toEqual({});
  });

  it("counts audit rows that already name the match text as retained, leaves them as written, and the chain verifies", async () => {
    t = await openTestMemory();
    // A row as an older version wrote it, with an identifier in clear (today a salted hash is written instead).
    await t.memory.audit.record({ action: "ingest_conversation", detail: { session: "standup of Ruth Okafor" } });
    await ingest({ title: "Standup", content: "Ruth Okafor leads the Tuesday standup." });
    const cert = (await post("/dsar", { match: "ruth okafor" })).body.certificate;
    expect(cert.erased).toMatchObject({ tables: { chunks: 1 }, retained: { audit_log: 1 } });
    expect((await post("/dsar/verify", cert)).body.valid).toBe(true);
    expect(JSON.stringify(await sql(t.dbPath, "SELECT detail FROM audit_log"))).toContain("standup of Ruth Okafor");
    expect((await (await t.req("GET", "/audit/verify")).json()).ok).toBe(true);
  });
});
