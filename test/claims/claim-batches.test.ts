/**
 * Claim batches over HTTP (SPEC §2.12: claim batches are typed workflow resources; the shape is this project's
 * choice): a batch of existing claims verified together in one transaction, with its own status and audit row.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
let schemaId: number;
const chunk: Record<string, number> = {};

async function json(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const r = await t.req(method, path, body);
  return { status: r.status, body: await r.json() };
}
async function claim(value: unknown, evidence: number[]): Promise<number> {
  const r = await json("POST", "/workflow/claims", { schema_id: schemaId, claim: value, evidence });
  expect(r.status).toBe(201);
  return r.body.id;
}

beforeAll(async () => {
  t = await openTestMemory({ CAIRN_EMBED_KIND: "none" });
  for (const [k, title, content] of [
    ["refunds", "Refund policy", "Orders damaged in transit are refunded in full within 30 days."],
    ["shipping", "Shipping", "Standard shipping to the islands takes six working days."],
  ] as const) chunk[k] = (await json("POST", "/ingest", { title, content })).body.id;
  schemaId = (await json("POST", "/workflow/claim-schemas", {
    name: "order-fact", schema: { type: "object", required: ["order"], properties: { order: { type: "string", pattern: "^A-[0-9]{4}$" } } },
  })).body.schema.id;
});
afterAll(async () => { await t?.close(); });

describe("claim batches", () => {
  it("files a batch of existing claims, verifies them together and records the batch's own status and audit rows", async () => {
    const a = await claim({ order: "A-1001" }, [chunk.refunds!]);
    const b = await claim({ order: "A-1002" }, [chunk.shipping!]);
    const filed = await json("POST", "/workflow/claim-batches", { claim_ids: [a, b], name: "week-48" });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({ claim_ids: [a, b], name: "week-48", status: "filed" });
    expect(filed.body).not.toHaveProperty("verified_at");
    const id = filed.body.id;

    const ok = await json("POST", `/workflow/claim-batches/${id}/verify`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ outcome: "verified", failed: [], changed: true, batch: { id, status: "verified" } });
    expect(ok.body.claims.map((c: { claim: { id: number }; outcome: string }) => [c.claim.id, c.outcome])).toEqual([[a, "verified"], [b, "verified"]]);
    expect((await json("GET", `/workflow/claims/${a}`)).body.status).toBe("verified");

    // Evidence of one member is erased: the batch fails, naming it; verifying again changes nothing.
    expect((await t.req("DELETE", `/memory/${chunk.shipping}`)).status).toBe(200);
    const failed = await json("POST", `/workflow/claim-batches/${id}/verify`);
    expect(failed.body).toMatchObject({ outcome: "failed", failed: [b], changed: true, batch: { status: "failed" } });
    expect(failed.body.claims[1].reasons.map((r: { code: string }) => r.code)).toEqual(["evidence_erased"]);
    const again = await json("POST", `/workflow/claim-batches/${id}/verify`);
    expect(again.body).toMatchObject({ outcome: "failed", changed: false });
    expect(again.body).not.toHaveProperty("audit_id");

    const got = await json("GET", `/workflow/claim-batches/${id}`);
    expect(got.body).toMatchObject({ id, status: "failed", claim_ids: [a, b] });
    expect(typeof got.body.verified_at).toBe("string");
    expect((await json("GET", "/workflow/claim-batches?status=failed")).body.batches.map((x: { id: number }) => x.id)).toContain(id);
    expect((await json("GET", "/workflow/claim-batches?status=verified")).body.batches.map((x: { id: number }) => x.id)).not.toContain(id);

    const rows = (await t.memory.audit.list({ action: "claim_batch_verified" })).rows.filter((r) => r.target === `claim_batch:${id}`);
    expect(rows.map((r) => [r.detail.from, r.detail.to])).toEqual([["filed", "verified"], ["verified", "failed"]]);
    expect((await t.memory.audit.list({ action: "claim_batch_filed" })).rows.some((r) => r.target === `claim_batch:${id}`)).toBe(true);
    expect((await t.memory.audit.verify()).ok).toBe(true);
  });

  it("refuses an empty, oversized, repeated or malformed member list, an unknown claim and a bad name, writing nothing", async () => {
    const a = await claim({ order: "A-2001" }, [chunk.refunds!]);
    const before = (await json("GET", "/workflow/claim-batches")).body.batches.length;
    for (const [body, code] of [
      [{ claim_ids: [] }, "invalid_request"],
      [{ claim_ids: Array.from({ length: 101 }, (_, i) => i + 1) }, "invalid_request"],
      [{ claim_ids: [a, a] }, "invalid_request"],
      [{ claim_ids: ["1"] }, "invalid_request"],
      [{ claim_ids: [a], name: "Not A Slug" }, "invalid_request"],
      [{}, "invalid_request"],
    ] as const) {
      const r = await json("POST", "/workflow/claim-batches", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe(code);
    }
    const unknown = await json("POST", "/workflow/claim-batches", { claim_ids: [a, 999_999] });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.details.missing).toEqual([999_999]);
    expect((await json("GET", "/workflow/claim-batches")).body.batches.length).toBe(before);
    expect((await json("GET", "/workflow/claim-batches/424242")).status).toBe(404);
    expect((await json("POST", "/workflow/claim-batches/424242/verify")).status).toBe(404);
  });

  it("a failing member schema check fails the batch but every member's own outcome is kept", async () => {
    const good = await claim({ order: "A-3001" }, [chunk.refunds!]);
    const bad = await claim({ order: "nope" }, [chunk.refunds!]);
    const id = (await json("POST", "/workflow/claim-batches", { claim_ids: [good, bad] })).body.id;
    const r = await json("POST", `/workflow/claim-batches/${id}/verify`);
    expect(r.body).toMatchObject({ outcome: "failed", failed: [bad] });
    expect((await json("GET", `/workflow/claims/${good}`)).body.status).toBe("verified");
    expect((await json("GET", `/workflow/claims/${bad}`)).body.reasons[0].code).toBe("claim_invalid");
  });
});
