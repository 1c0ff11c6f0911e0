import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { verifyCertificate, type AuditRowLike, type Certificate } from "../../src/erasure/certificate.ts";

// A deletion certificate checked against audit rows that were edited around it (SPEC §1 item 6; src/erasure/README.md
// "Verifying"): the row it points at must be the erasure row itself, and the chain check covers that row too, so an
// edit to the erasure row's own counts is caught even when its stored hash and link were left as they were.

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

async function erased(): Promise<{ cert: Certificate; rows: AuditRowLike[]; at: number }> {
  t = await openTestMemory();
  await t.req("POST", "/ingest", { title: "Berth", content: "Berth 3 is rented by noor.h@example.com." });
  await t.req("POST", "/ingest/proposal", { content: "A first audited write, so the erasure row is not the first row." });
  const cert = (await (await t.req("POST", "/dsar", { email: "noor.h@example.com" })).json()).certificate as Certificate;
  await t.req("POST", "/ingest/proposal", { content: "A later audited write after the erasure." });
  const rows = (await (await t.req("GET", "/audit?limit=1000")).json()).rows as AuditRowLike[];
  const at = rows.findIndex((r) => r.id === cert.audit.row_id);
  expect(at).toBeGreaterThan(0);
  expect(rows.length).toBeGreaterThan(at + 1);
  return { cert, rows, at };
}

const edit = (rows: AuditRowLike[], i: number, patch: Partial<AuditRowLike>) => rows.map((r, j) => (j === i ? { ...r, ...patch } : r));
const failed = (r: { checks: { name: string; ok: boolean }[] }) => r.checks.filter((c) => !c.ok);

describe("the erasure row a certificate points at", () => {
  it("breaks the chain at that row when its recorded counts were edited, though its hash and link were kept", async () => {
    const { cert, rows, at } = await erased();
    const edited = edit(rows, at, { detail: { ...rows[at].detail, chunks: 0 } });
    expect(failed(verifyCertificate(cert, edited))).toEqual([{ name: "chain", ok: false, detail: `chain broken at audit row ${cert.audit.row_id}` }]);
    expect(verifyCertificate(cert, rows)).toMatchObject({ valid: true });
  });

  it("must be an erasure row, even when it carries the certificate's id, digest, hash and link", async () => {
    const { cert, rows, at } = await erased();
    const relabelled = edit(rows, at, { action: "purge" });
    expect(failed(verifyCertificate(cert, relabelled))).toEqual([
      { name: "audit_row", ok: false, detail: `audit row ${cert.audit.row_id} does not record this certificate` },
      { name: "chain", ok: false, detail: `chain broken at audit row ${cert.audit.row_id}` },
    ]);
  });

  it("does not record a certificate whose id was changed after issue, though its digest still names the row", async () => {
    const { cert, rows } = await erased();
    const renamed = { ...cert, id: "22222222-2222-4222-8222-222222222222" };
    expect(failed(verifyCertificate(renamed, rows)).map((c) => c.name)).toEqual(["digest", "audit_row"]);
  });
});

describe("confirming the subject", () => {
  it("confirms a subject given by owner alone or by match text alone", async () => {
    t = await openTestMemory();
    await t.req("POST", "/ingest", { title: "Slip", content: "Slip 9 is kept for the rowing club." });
    for (const subject of [{ owner: "did:key:rowing" }, { match: "rowing club" }]) {
      const cert = (await (await t.req("POST", "/dsar", subject)).json()).certificate as Certificate;
      const rows = (await (await t.req("GET", "/audit?limit=1000")).json()).rows as AuditRowLike[];
      expect(verifyCertificate(cert, rows, subject)).toMatchObject({ valid: true });
      expect(failed(verifyCertificate(cert, rows, { match: "rowing" }))).toEqual([{ name: "subject", ok: false, detail: "the given subject is not the certificate's subject" }]);
    }
  });
});
