/**
 * Issue 22 item 7: JSON details a new user reads literally. A hit's
 * `confidence` is the label stored with the entry (SPEC §2.1), not how well
 * it matched (`relevance`, from the fused score); a proposal says
 * `pii_redacted: true` only when something was redacted.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { nowS, signJwt } from "../auth/_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long-for-json-details";
let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

async function jwtMemory() {
  const dir = tempDir();
  const p = join(dir, "hs");
  writeFileSync(p, HS);
  chmodSync(p, 0o600);
  t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: p }, {}, dir);
  return (roles: string[]) => ({ authorization: `Bearer ${signJwt("HS256", { sub: "rev@example.org", exp: nowS() + 600, roles }, HS)}` });
}

describe("hit confidence is the stored label", () => {
  it("a record remembered with confidence 0.35 is served with confidence 0.35; a web-sourced entry with 0.9", async () => {
    const m = (t = await openTestMemory());
    await m.req("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text: "The canteen serves lentil soup on Thursdays" }, lifecycle: { confidence: 0.35 } });
    await m.req("POST", "/ingest", { title: "glacier", content: "The glacier lost forty metres of ice since spring", source: "https://example.org/glacier" });
    const hits = (await (await m.req("POST", "/recall", { query: "lentil soup canteen Thursdays" })).json()).hits;
    expect(hits[0]).toMatchObject({ content: expect.stringContaining("lentil soup"), confidence: 0.35 });
    const web = (await (await m.req("POST", "/recall", { query: "glacier ice metres" })).json()).hits;
    expect(web[0]).toMatchObject({ confidence: 0.9 });
    const stored = await m.memory.db.client.execute("SELECT confidence FROM chunks ORDER BY id");
    expect(stored.rows.map((r) => Number(r.confidence))).toEqual([0.35, 0.9]);
  });
});

describe("pii_redacted on review views", () => {
  it("is absent when the proposal holds no PII, present when something was redacted", async () => {
    const as = await jwtMemory();
    const clean = await (await t!.req("POST", "/ingest/proposal", { content: "The staging cluster is patched every Wednesday." }, as(["agent"]))).json();
    const pii = await (await t!.req("POST", "/ingest/proposal", { content: "Page ops-lead@example.com when staging is down." }, as(["agent"]))).json();
    const list = (await (await t!.req("GET", "/proposals?status=pending", undefined, as(["admin"]))).json()) as { id: number; pii_redacted?: boolean }[];
    expect(list.find((p) => p.id === clean.id)!.pii_redacted).toBeUndefined();
    expect(list.find((p) => p.id === pii.id)!.pii_redacted).toBe(true);
  });
});
