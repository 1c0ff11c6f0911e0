/**
 * Claim schema patterns run on a linear-time engine (docs/limits.md
 * "Patterns"): `^(a|a)+$` against 40 a's and a `!` once blocked the event loop
 * for hours (24 a's 0.4 s, 27 a's 2.1 s, doubling per character). Now a
 * pattern is compiled with RE2 semantics (re2js) at schema creation; syntax
 * outside that linear-time subset (lookaround, backreferences) is refused with
 * 400 `claim_schema_invalid`, and the checks of one validation share a work budget.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }); });
afterEach(async () => { await t.close(); });

async function schema(name: string, pattern: string, items = false): Promise<Response> {
  const v = { type: "string", pattern };
  return await t.req("POST", "/workflow/claim-schemas", { name, schema: { type: "object", properties: { v: items ? { type: "array", items: v } : v } } });
}
async function verify(schemaId: number, claim: unknown): Promise<{ outcome: string; reasons: { code: string; path: string; keyword: string; message: string }[] }> {
  const chunk = (await (await t.req("POST", "/ingest", { title: "e", content: "evidence for the claim" })).json()).id;
  const filed = await t.req("POST", "/workflow/claims", { schema_id: schemaId, claim, evidence: [chunk] });
  expect(filed.status).toBe(201);
  return await (await t.req("POST", `/workflow/claims/${(await filed.json()).id}/verify`)).json();
}

describe("claim schema patterns", () => {
  it("^(a|a)+$ against 40 a's and a ! answers: the claim fails on its pattern, the server keeps serving", async () => {
    const res = await schema("redos", "^(a|a)+$");
    expect(res.status).toBe(201);
    const id = (await res.json()).schema.id;
    const v = await verify(id, { v: "a".repeat(40) + "!" });
    expect(v.outcome).toBe("failed");
    expect(v.reasons).toEqual([expect.objectContaining({ code: "claim_invalid", path: "/v", keyword: "pattern" })]);
    expect((await verify(id, { v: "a".repeat(40) })).outcome).toBe("verified");
    expect((await t.req("GET", "/health")).status).toBe(200);
  });

  for (const [pattern, why] of [["^(a)\\1$", "a backreference"], ["^(?=a)a$", "a lookahead"], ["(?<!x)y", "a lookbehind"]]) {
    it(`refuses ${why} (${pattern}) at creation with 400 claim_schema_invalid`, async () => {
      const res = await schema("outside", pattern!);
      expect(res.status).toBe(400);
      const e = (await res.json()).error;
      expect(e).toMatchObject({ code: "claim_schema_invalid", details: { keyword: "pattern", schema_path: "/properties/v" } });
      expect(e.message).toMatch(/linear-time/);
    });
  }

  it("keeps ECMAScript spellings RE2 lacks: \\u escapes, [^] and named groups", async () => {
    const res = await schema("ecma", "^(?<word>caf\\u00e9)[^]?$");
    expect(res.status).toBe(201);
    const id = (await res.json()).schema.id;
    expect((await verify(id, { v: "café!" })).outcome).toBe("verified");
    expect((await verify(id, { v: "cafe" })).outcome).toBe("failed");
  });

  it("a validation past the pattern work budget fails closed on the pattern (never accepted unchecked)", async () => {
    // About a thousand program steps per character: 30,000 characters are past the 20,000,000-step budget.
    const id = (await (await schema("costly", "[a-c]{1000}d", true)).json()).schema.id;
    const v = await verify(id, { v: ["abc".repeat(10_000)] });
    expect(v.outcome).toBe("failed");
    expect(v.reasons[0]).toMatchObject({ keyword: "pattern", message: expect.stringMatching(/work budget/) });
    // The same pattern on a short value is checked as usual.
    expect((await verify(id, { v: ["a".repeat(1000) + "d"] })).outcome).toBe("verified");
  });
});
