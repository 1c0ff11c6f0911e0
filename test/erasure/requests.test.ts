import { createHash } from "node:crypto";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { ingestId, type Json, postJson } from "../_helpers/json-calls.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

// What a caller of POST /purge and POST /dsar sees (SPEC §4.4, §1 item 6, §7 envelope): which requests are refused and
// why, what each reply and audit row holds, what the subject-access export contains, and what an erasure leaves alone.

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const post = (path: string, body: unknown) => postJson(t!, path, body);
const ingest = (body: Json) => ingestId(t!, body);
async function sql(q: string): Promise<Json[]> {
  const c = createClient({ url: `file:${t!.dbPath}` });
  try {
    return (await c.execute(q)).rows as unknown as Json[];
  } finally {
    c.close();
  }
}
const chunkIds = async () => (await sql("SELECT id FROM chunks ORDER BY id")).map((r) => Number(r.id));
const entityNames = async () => (await sql("SELECT name FROM entities ORDER BY name")).map((r) => String(r.name));
const auditRows = async (action: string) => (await (await t!.req("GET", `/audit?action=${action}`)).json()).rows as Json[];
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

async function approveAll() {
  for (const p of await (await t!.req("GET", "/proposals?status=pending")).json()) {
    expect((await t!.req("POST", `/proposals/${p.id}/approve?digest=${p.content_digest}`)).status).toBe(200);
  }
}

describe("POST /purge requests", () => {
  it.each([
    ["neither ids nor owner", {}, "ids", /give exactly one of ids or owner/],
    ["both", { ids: [1], owner: "a" }, "ids", /exactly one/],
    ["a blank owner", { owner: "   " }, "owner", /owner must be a non-empty string of at most 256 characters/],
    ["an owner over 256 characters", { owner: "o".repeat(257) }, "owner", /at most 256/],
    ["a numeric owner", { owner: 42 }, "owner", /owner must be/],
    ["ids that are not a list", { ids: 3 }, "ids", /ids must be 1 to 100000 positive integers/],
    ["an empty id list", { ids: [] }, "ids", /positive integers/],
    ["a zero id", { ids: [1, 0] }, "ids", /positive integers/],
    ["a negative id", { ids: [-4] }, "ids", /positive integers/],
    ["a fractional id", { ids: [1.5] }, "ids", /positive integers/],
    ["a string id", { ids: ["2"] }, "ids", /positive integers/],
    ["a body that is a list", [1, 2], undefined, /object/],
  ])("refuses %s with 400 invalid_request naming the field", async (_what, body, field, message) => {
    t = await openTestMemory();
    const id = await ingest({ title: "Keep", content: "The lighthouse lamp is serviced monthly." });
    const r = await post("/purge", body);
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    expect(r.body.error.message).toMatch(message);
    if (field) expect(r.body.error.details).toMatchObject({ field });
    expect(await chunkIds()).toEqual([id]);
    expect(await auditRows("purge")).toEqual([]);
  });

  it("refuses more than 100,000 ids and takes exactly 100,000", async () => {
    t = await openTestMemory();
    const ids = Array.from({ length: 100_000 }, (_, i) => i + 1);
    await expect(t.memory.erasure.purge({ ids: [...ids, 100_001] })).rejects.toMatchObject({ code: "invalid_request" });
    const r = await t.memory.erasure.purge({ ids });
    expect(r).toMatchObject({ purged: 0, ids: [], proposals_deleted: 0 });
    expect(r.missing).toHaveLength(100_000);
  });

  it("takes a null field as absent, trims the owner, and removes duplicates from an id list", async () => {
    t = await openTestMemory();
    await post("/ingest/proposal", { content: "Owned pier inspection note.", owner: "did:key:pier" });
    await approveAll();
    const [owned] = await chunkIds();
    const a = await ingest({ title: "A", content: "Buoy A drifts north in winter." });
    const b = await ingest({ title: "B", content: "Buoy B was repainted yellow." });
    const keep = await ingest({ title: "C", content: "Buoy C is the harbour entrance marker." });

    const byOwner = await post("/purge", { owner: "  did:key:pier  ", ids: null });
    expect(byOwner).toMatchObject({ status: 200, body: { purged: 1, ids: [owned], proposals_deleted: 1 } });
    expect(byOwner.body).not.toHaveProperty("missing");

    const byIds = await post("/purge", { ids: [b, a, b, a], owner: null });
    expect(byIds.status).toBe(200);
    expect(byIds.body).toEqual({ purged: 2, ids: [a, b], proposals_deleted: 0, tables: { chunks: 2 }, audit_id: expect.any(Number) });
    expect(await chunkIds()).toEqual([keep]);

    // The reply's audit_id is the row that records it; the row names the way of selection and binds the id list.
    const rows = await auditRows("purge");
    expect(rows.map((r) => r.target)).toEqual(["owner", "ids"]);
    expect(rows[1].id).toBe(byIds.body.audit_id);
    expect(rows[0].id).toBe(byOwner.body.audit_id);
    expect(rows[1].detail).toEqual({ chunks: 2, ids_sha256: sha256([a, b].join(",")), proposals: 0, links: 0, tables: { chunks: 2 } });
    expect(rows[0].detail).toEqual({ chunks: 1, ids_sha256: sha256(String(owned)), proposals: 1, links: 0, tables: { chunks: 1, proposals: 1 } });
  });

  it("reports ids that are not stored, and purges nothing and audits nothing when none is", async () => {
    t = await openTestMemory();
    const a = await ingest({ title: "A", content: "Tide tables for the north quay." });
    expect((await post("/purge", { ids: [999, a] })).body).toEqual({ purged: 1, ids: [a], proposals_deleted: 0, tables: { chunks: 1 }, missing: [999], audit_id: expect.any(Number) });
    expect((await post("/purge", { ids: [a, 998] })).body).toEqual({ purged: 0, ids: [], proposals_deleted: 0, tables: {}, missing: [a, 998] });
    expect(await auditRows("purge")).toHaveLength(1);
  });
});

describe("POST /dsar requests", () => {
  it.each([
    ["no subject", {}, "owner", /give at least one of owner, email or match/],
    ["only nulls", { owner: null, email: null, match: null }, "owner", /give at least one/],
    ["a blank owner", { owner: "  " }, "owner", /owner must be a string of 1 to 256 characters/],
    ["an owner over 256 characters", { owner: "o".repeat(257) }, "owner", /owner must be a string of 1 to 256/],
    ["a numeric owner", { owner: 7 }, "owner", /owner must be a string/],
    ["an email under 3 characters", { email: "a@" }, "email", /email must be a string of 3 to 320 characters/],
    ["an email over 320 characters", { email: `${"e".repeat(310)}@example.org` }, "email", /3 to 320/],
    ["an email with a space", { email: "jo hn@example.org" }, "email", /email must look like name@host/],
    ["an email with text before it", { email: "x jo@example.org" }, "email", /look like name@host/],
    ["an email with two @", { email: "a@b@c" }, "email", /look like name@host/],
    ["an email with no host", { email: "john@" }, "email", /look like name@host/],
    ["a match under 3 characters", { match: " ab " }, "match", /match must be a string of 3 to 1000 characters/],
    ["a match over 1000 characters", { match: "m".repeat(1001) }, "match", /3 to 1000/],
    ["a non-boolean dry_run", { owner: "x", dry_run: "true" }, "dry_run", /dry_run must be a boolean/],
  ])("refuses %s with 400 invalid_request naming the field", async (_what, body, field, message) => {
    t = await openTestMemory();
    await ingest({ title: "Keep", content: "The lighthouse lamp is serviced monthly by john@example.org." });
    const r = await post("/dsar", body);
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", details: { field } });
    expect(r.body.error.message).toMatch(message);
    expect(await chunkIds()).toHaveLength(1);
    expect(await auditRows("erasure")).toEqual([]);
  });

  it("takes the longest subject fields allowed, and trims them before matching and hashing", async () => {
    t = await openTestMemory();
    const email = `${"e".repeat(308)}@example.org`; // 320 characters
    expect((await post("/dsar", { owner: "o".repeat(256), email, match: "m".repeat(1000), dry_run: false })).status).toBe(200);
    const id = await ingest({ title: "Gate", content: "Gate code for the boatyard: ask Ulla." });
    const out = (await post("/dsar", { match: "  boatyard  " })).body;
    expect(out.certificate.erased.chunk_ids).toEqual([id]);
    expect(out.certificate.subject.fields).toEqual(["match"]);
    expect((await post("/dsar/verify", { certificate: out.certificate, subject: { match: "boatyard" } })).body.valid).toBe(true);
  });
});

describe("the subject-access export and what an erasure leaves", () => {
  it("exports each located chunk and proposal with its fields, in id order, the subject's PII in clear", async () => {
    t = await openTestMemory();
    const needle = "ravi.k@example.com";
    const untitled = (await post("/ingest/memory", { content: `Call ${needle} about the sail loft keys.` })).body.id as number;
    const titled = await ingest({ title: `Ravi (${needle})`, content: "Sail loft rent is due on the first.", domain: "global", source: "https://example.org/loft" });
    const byTitle = await ingest({ title: `Contact ${needle}`, content: "Nothing personal in the body." });
    const other = await ingest({ title: "Loft", content: "The sail loft roof was repaired." });
    await post("/ingest/proposal", { title: "Keys", content: `Give ${needle.toUpperCase()} a spare key.` });
    const out = (await post("/dsar", { email: needle, dry_run: true })).body;
    expect(out.dry_run).toBe(true);
    expect(out.located).toEqual({ chunks: 3, proposals: 1, tables: {} });
    const chunks = out.export.chunks as Json[];
    expect(chunks.map((c) => c.id)).toEqual([untitled, titled, byTitle].sort((x, y) => x - y));
    expect(chunks.map((c) => c.id)).not.toContain(other);
    const first = chunks.find((c) => c.id === untitled)!;
    expect(Object.keys(first).sort()).toEqual(["content", "created_at", "domain", "id", "source"]);
    expect(first.content).toBe(`Call ${needle} about the sail loft keys.`);
    const second = chunks.find((c) => c.id === titled)!;
    expect(second).toEqual({ id: titled, title: `Ravi (${needle})`, content: "Sail loft rent is due on the first.", domain: "global", source: expect.any(String), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const [proposal] = out.export.proposals as Json[];
    expect(proposal).toEqual({ id: expect.any(Number), status: "pending", title: "Keys", content: `Give ${needle.toUpperCase()} a spare key.`, domain: "global", created_at: expect.any(String) });
  });

  it("announces exactly the certificate's public fields to erasure listeners", async () => {
    t = await openTestMemory();
    await ingest({ title: "Slip", content: "Slip 4 belongs to ines.p@example.com." });
    const heard: Json[] = [];
    t.memory.onErasure((n) => void heard.push(n as Json));
    const cert = (await post("/dsar", { email: "ines.p@example.com" })).body.certificate;
    await new Promise((r) => setTimeout(r, 20));
    expect(heard).toEqual([{
      certificate_id: cert.id, certificate_digest: cert.digest, issued_at: cert.issued_at, audit_row_id: cert.audit.row_id,
      subject_digest: cert.subject.digest, chunks: 1, proposals: 0,
    }]);
  });

  it("erases graph entities named by a cleaned form of three characters or more, and no others", async () => {
    t = await openTestMemory();
    await ingest({ title: "Vendors", content: "Vendor list for the chandlery.", entities: [{ name: "Abc Rigging" }, { name: "Xylophone Works" }] });
    expect(await entityNames()).toEqual(expect.arrayContaining(["abc rigging", "xylophone works"]));
    // "x.y" cleans to "xy" (two characters): too short to name anyone, so "Xylophone Works" stays.
    expect((await post("/dsar", { match: "x.y" })).body.certificate.erased).toMatchObject({ entities: 0 });
    // Nothing left after cleaning: nothing to match, and no failure.
    expect((await post("/dsar", { match: "@@@" })).body.certificate.erased).toMatchObject({ entities: 0 });
    // "a.bc" cleans to "abc": "Abc Rigging" goes.
    expect((await post("/dsar", { match: "a.bc" })).body.certificate.erased).toMatchObject({ chunk_ids: [], entities: 1 });
    expect(await entityNames()).not.toContain("abc rigging");
    expect(await entityNames()).toContain("xylophone works");
  });
});
