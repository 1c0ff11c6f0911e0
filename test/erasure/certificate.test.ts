import { createHash } from "node:crypto";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { verifyCertificate, type AuditRowLike, type Certificate } from "../../src/erasure/certificate.ts";

// The deletion certificate a data subject receives (SPEC §1 item 6; src/erasure/README.md "Certificate format"): its
// fields recomputed from the documented recipe with node:crypto and a JCS written here, and each way a tampered or
// misplaced certificate fails verification, with the check and message a verifier prints.

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const EMAIL = "Mona.Vale@Example.net";
const NOW = new Date("2026-03-04T05:06:07.089Z");
const sha256 = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");
/** RFC 8785 for the plain strings, integers, arrays and objects a certificate holds. */
const jcs = (v: unknown): string => Array.isArray(v) ? `[${v.map(jcs).join(",")}]`
  : v !== null && typeof v === "object" ? `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${jcs((v as Record<string, unknown>)[k])}`).join(",")}}`
  : JSON.stringify(v);

type Check = { name: string; ok: boolean; detail?: string };
const failed = (r: { checks: Check[] }) => r.checks.filter((c) => !c.ok);

async function erasedStore(): Promise<{ cert: Certificate; rows: AuditRowLike[] }> {
  t = await openTestMemory({}, { clock: () => NOW });
  await t.req("POST", "/ingest", { title: "Lease", content: `Tenant ${EMAIL.toLowerCase()} renewed the marina berth lease.` });
  await t.req("POST", "/ingest", { title: "Berths", content: "Marina berth fees rise in April." });
  const res = await t.req("POST", "/dsar", { email: EMAIL, owner: "did:key:mona", match: "berth lease" });
  expect(res.status).toBe(200);
  const cert = (await res.json()).certificate as Certificate;
  // Two later rows, so the certificate's row is not the chain head.
  await t.req("POST", "/ingest", { title: "Later", content: "Harbour crane inspection passed." });
  const rows = (await (await t.req("GET", "/audit?limit=1000")).json()).rows as AuditRowLike[];
  return { cert, rows };
}

const verifyHttp = async (body: unknown) => (await t!.req("POST", "/dsar/verify", body)).json() as Promise<{ valid: boolean; checks: Check[] }>;

describe("the certificate's fields", () => {
  it("follow the documented recipe: salted subject digest, JCS digest, and the erasure row's hash and link", async () => {
    const { cert, rows } = await erasedStore();
    expect(cert.format).toBe("cairn-erasure-certificate/1");
    expect(cert.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cert.issued_at).toBe(NOW.toISOString());
    expect(cert.subject.fields).toEqual(["email", "match", "owner"]);
    expect(cert.subject.salt).toMatch(/^[0-9a-f]{32}$/);
    expect(cert.subject.digest).toBe(sha256(jcs({ salt: cert.subject.salt, subject: { email: EMAIL.toLowerCase(), match: "berth lease", owner: "did:key:mona" } })));
    expect(cert.erased).toEqual({ chunk_ids: [1], proposal_ids: [], links: 0, entities: 0, relations: 0, tables: { chunks: 1 }, redacted: {}, retained: {} });
    const { digest, audit, ...body } = cert;
    expect(digest).toBe(sha256(jcs(body)));
    const i = rows.findIndex((r) => r.id === audit.row_id);
    expect(rows[i]).toMatchObject({ action: "erasure", target: `certificate:${cert.id}`, hash: audit.row_hash, prev_hash: audit.prev_hash });
    expect(rows[i - 1].hash).toBe(audit.prev_hash);
    expect(rows[i].detail).toEqual({
      certificate_id: cert.id, certificate_digest: digest, subject_digest: cert.subject.digest, chunks: 1, proposals: 0, links: 0, entities: 0, relations: 0,
      tables: { chunks: 1 }, redacted: {}, retained: {},
    });
    // Two erasures of the same subject get different salts, so their subject digests cannot be linked.
    const again = (await (await t!.req("POST", "/dsar", { email: EMAIL })).json()).certificate as Certificate;
    expect(again.subject.fields).toEqual(["email"]);
    expect(again.subject.salt).not.toBe(cert.subject.salt);
    expect(again.erased.chunk_ids).toEqual([]);
    expect(await t!.req("GET", `/dsar/certificates/${again.id}`).then((r) => r.json())).toEqual(again);
  });

  it("is served by id, and an unknown id is a 404 not_found", async () => {
    const { cert } = await erasedStore();
    expect(await (await t!.req("GET", `/dsar/certificates/${cert.id}`)).json()).toEqual(cert);
    const res = await t!.req("GET", "/dsar/certificates/00000000-0000-4000-8000-000000000000");
    expect(res.status).toBe(404);
    const e = (await res.json()).error;
    expect(e.code).toBe("not_found");
    expect(e.message).toContain("00000000-0000-4000-8000-000000000000");
  });
});

describe("verifying a certificate", () => {
  it("passes every check, with no failure detail, and with the subject's own identifiers in any case", async () => {
    const { cert } = await erasedStore();
    const ok = [{ name: "format", ok: true }, { name: "digest", ok: true }, { name: "audit_row", ok: true }, { name: "chain", ok: true }];
    expect(await verifyHttp(cert)).toEqual({ valid: true, checks: ok });
    const subject = { email: EMAIL.toUpperCase(), owner: "did:key:mona", match: "berth lease" };
    expect(await verifyHttp({ certificate: cert, subject })).toEqual({ valid: true, checks: [...ok, { name: "subject", ok: true }] });
    for (const wrong of [{ ...subject, owner: "did:key:other" }, { ...subject, match: "Berth lease" }, { email: EMAIL }]) {
      const r = await verifyHttp({ certificate: cert, subject: wrong });
      expect(r.valid).toBe(false);
      expect(failed(r)).toEqual([{ name: "subject", ok: false, detail: "the given subject is not the certificate's subject" }]);
    }
  });

  it("refuses anything that is not a certificate with the format check alone", async () => {
    const { cert } = await erasedStore();
    const notCerts: unknown[] = [
      null, "certificate", { ...cert, format: "cairn-erasure-certificate/2" }, { ...cert, id: 7 }, { ...cert, digest: null },
      { ...cert, audit: null }, { ...cert, audit: "57" }, { ...cert, audit: { ...cert.audit, row_id: "3" } }, { ...cert, audit: { ...cert.audit, row_id: 2.5 } },
      { ...cert, subject: null }, { ...cert, subject: "x" }, { ...cert, erased: null }, { ...cert, erased: 3 },
    ];
    for (const c of notCerts) {
      expect(verifyCertificate(c, []), JSON.stringify(c)?.slice(0, 80)).toEqual({
        valid: false, checks: [{ name: "format", ok: false, detail: "not a cairn-erasure-certificate/1 document" }],
      });
    }
    expect(await verifyHttp({ ...cert, audit: { ...cert.audit, row_id: "3" } })).toMatchObject({ valid: false, checks: [{ name: "format", ok: false }] });
    // Through the service too: a null body, a wrapped null and a certificate without its audit block are answered, not a 500.
    for (const body of [null, { certificate: null }, { ...cert, audit: null }, { ...cert, audit: undefined }]) {
      const res = await t!.req("POST", "/dsar/verify", body);
      expect(res.status, JSON.stringify(body)?.slice(0, 60)).toBe(200);
      expect(await res.json()).toEqual({ valid: false, checks: [{ name: "format", ok: false, detail: "not a cairn-erasure-certificate/1 document" }] });
    }
  });

  it("names the failing check for each tampering", async () => {
    const { cert, rows } = await erasedStore();
    const v = (c: unknown) => failed(verifyCertificate(c, rows));
    const digestFails = { name: "digest", ok: false, detail: "certificate fields do not match its digest" };
    const rowFails = { name: "audit_row", ok: false, detail: `audit row ${cert.audit.row_id} does not record this certificate` };
    expect(v(cert)).toEqual([]);
    // Fields edited after issue: the digest no longer matches.
    expect(v({ ...cert, issued_at: "2026-03-05T00:00:00.000Z" })).toEqual([digestFails]);
    expect(v({ ...cert, erased: { ...cert.erased, links: 4 } })).toEqual([digestFails]);
    expect(v({ ...cert, subject: { ...cert.subject, fields: ["owner"] } })).toEqual([digestFails]);
    // Fields edited and re-digested: the audit row records another digest.
    const { digest: _d, audit: _a, ...body } = cert;
    const forgedBody = { ...body, erased: { ...body.erased, chunk_ids: [1, 2] } };
    expect(v({ ...forgedBody, digest: sha256(jcs(forgedBody)), audit: cert.audit })).toEqual([rowFails]);
    const otherId = { ...body, id: "11111111-1111-4111-8111-111111111111" };
    expect(v({ ...otherId, digest: sha256(jcs(otherId)), audit: cert.audit })).toEqual([rowFails]);
    // The stated hash or link of the row is wrong.
    expect(v({ ...cert, audit: { ...cert.audit, row_hash: "0".repeat(64) } })).toEqual([rowFails]);
    expect(v({ ...cert, audit: { ...cert.audit, prev_hash: rows[0].hash } })).toEqual([rowFails]);
    // Pointed at a row that is not an erasure row.
    expect(v({ ...cert, audit: { ...cert.audit, row_id: 1 } })).toEqual([{ ...rowFails, detail: "audit row 1 does not record this certificate" }]);
    // A value with no JSON form cannot match the digest, and does not throw.
    expect(v({ ...cert, erased: { ...cert.erased, links: Number.NaN } })).toEqual([digestFails]);
  });

  it("fails the chain when a row up to the certificate's was altered, but not for rows after it", async () => {
    const { cert, rows } = await erasedStore();
    const at = rows.findIndex((r) => r.id === cert.audit.row_id);
    expect(at).toBeGreaterThan(1);
    expect(rows.length).toBeGreaterThan(at + 1);
    const edit = (i: number, patch: Partial<AuditRowLike>) => rows.map((r, j) => (j === i ? { ...r, ...patch } : r));
    const chain = (rs: AuditRowLike[]) => verifyCertificate(cert, rs).checks.find((c) => c.name === "chain");
    expect(chain(edit(0, { detail: { ...rows[0].detail, extra: 1 } }))).toEqual({ name: "chain", ok: false, detail: `chain broken at audit row ${rows[0].id}` });
    expect(chain(edit(1, { prev_hash: "f".repeat(64) }))).toEqual({ name: "chain", ok: false, detail: `chain broken at audit row ${rows[1].id}` });
    expect(chain(edit(1, { actor: "someone" }))).toMatchObject({ ok: false });
    expect(chain(edit(at + 1, { action: "tampered" }))).toEqual({ name: "chain", ok: true });
    expect(verifyCertificate(cert, edit(at + 1, { hash: "0".repeat(64) })).valid).toBe(true);
    // Rows served without actor/target keys (absent read as null) still verify.
    const bare = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([, x]) => x !== null)) as unknown as AuditRowLike);
    expect(verifyCertificate(cert, bare).valid).toBe(true);
  });

  it("fails the row and chain checks when the rows stop before the certificate's row", async () => {
    const { cert, rows } = await erasedStore();
    const before = rows.filter((r) => r.id < cert.audit.row_id);
    expect(failed(verifyCertificate(cert, before))).toEqual([
      { name: "audit_row", ok: false, detail: `audit row ${cert.audit.row_id} not found` },
      { name: "chain", ok: false, detail: "audit rows do not reach the certificate's row" },
    ]);
    expect(failed(await verifyHttp({ ...cert, audit: { ...cert.audit, row_id: 99_999 } })).map((c) => c.detail)).toEqual([
      "audit row 99999 not found", "audit rows do not reach the certificate's row",
    ]);
  });
});

describe("verifying against this store's audit log", () => {
  it("reads the chain in pages past 1,000 rows, and an unreadable row breaks it", async () => {
    t = await openTestMemory();
    await t.memory.db.write(async (tx) => {
      for (let i = 0; i < 1_203; i++) await t!.memory.audit.append(tx, { action: "note", target: `n:${i}`, detail: { i } });
    });
    await t.req("POST", "/ingest", { title: "Kiosk", content: "Kiosk operator kim.lo@example.com opens at nine." });
    const cert = (await (await t.req("POST", "/dsar", { email: "kim.lo@example.com" })).json()).certificate as Certificate;
    expect(cert.audit.row_id).toBeGreaterThan(1_203);
    expect(await verifyHttp(cert)).toMatchObject({ valid: true });
    const c = createClient({ url: `file:${t.dbPath}` });
    await c.execute("DROP TRIGGER audit_log_no_update");
    await c.execute("UPDATE audit_log SET detail = 'not json' WHERE id = 1100");
    c.close();
    expect(failed(await verifyHttp(cert))).toEqual([{ name: "chain", ok: false, detail: "chain broken at audit row 1100" }]);
  });
});
