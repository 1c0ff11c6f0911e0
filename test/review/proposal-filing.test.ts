/**
 * What a client filing a proposal and a reviewer reading it see (SPEC §2.7, §3, §4.2, §4.3): the body rules of
 * `POST /ingest/proposal`, the deterministic score and its breakdown (the reasons a reviewer reads), and the review
 * view's fields. Issue 27: these kill the mutants of `src/review/` that no test reached.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";
import { scoreProposal } from "../../src/review/score-proposal.ts";
import { routeWrite } from "../../src/review/route-write.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

type View = Record<string, any>;

async function propose(tm: TestMemory, body: Record<string, unknown>) {
  const res = await tm.req("POST", "/ingest/proposal", body);
  return { status: res.status, body: await res.json() };
}

async function view(tm: TestMemory, id: number): Promise<View> {
  const res = await tm.req("GET", `/proposals/${id}`);
  expect(res.status).toBe(200);
  return res.json();
}

const parts = (v: View) => Object.fromEntries(v.score_breakdown.components.map((c: { name: string }) => [c.name, c]));
const hex = (s: string) => bytesToHex(sha256(new TextEncoder().encode(s)));

describe("the body of POST /ingest/proposal", () => {
  it("accepts each documented origin and refuses any other with 400 invalid_request on the origin field", async () => {
    t = await openTestMemory();
    const trust: Record<string, number> = { human: 1, operator: 1, agent: 0.7, imported: 0.6, model: 0.5, channel: 0.5 };
    for (const [origin, value] of Object.entries(trust)) {
      const r = await propose(t, { content: `A note filed by origin ${origin} about the backup rota.`, origin });
      expect(r.status).toBe(200);
      const v = await view(t, r.body.id);
      expect(v.origin).toBe(origin);
      expect(parts(v).provenance).toMatchObject({ value, why: `origin ${origin}` });
    }
    const bad = await propose(t, { content: "From nowhere.", origin: "robot" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", details: { field: "origin" } });
    expect(bad.body.error.message).toContain("human, model, agent, operator, imported, channel");
  });

  it("defaults the origin to agent, the kind to memory and the domain to global; null title and domain are absent", async () => {
    t = await openTestMemory();
    const r = await propose(t, { content: "The release train leaves on Tuesdays.", title: null, domain: null });
    expect(r.status).toBe(200);
    expect(r.body.domain).toBe("global");
    const v = await view(t, r.body.id);
    expect(v).toMatchObject({ kind: "memory", domain: "global", origin: "agent", door: "/ingest/proposal" });
    expect(v.title).toBeUndefined();
    expect(parts(v).provenance).toMatchObject({ value: 0.7, why: "origin agent" });
    const m = await propose(t, { content: "Explicit memory kind.", kind: "memory" });
    expect((await view(t, m.body.id)).kind).toBe("memory");
  });

  it("refuses a kind that is neither memory nor capture, naming the field", async () => {
    t = await openTestMemory();
    const r = await propose(t, { content: "x", kind: "decision" });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: "invalid_request", details: { field: "kind" } });
  });

  it("trims the owner, drops a blank one and bounds it at 256 bytes", async () => {
    t = await openTestMemory();
    const a = await propose(t, { content: "Owned note about the rota.", owner: "  did:key:bob  " });
    expect((await view(t, a.body.id)).owner).toBe("did:key:bob");
    const b = await propose(t, { content: "Unowned note about the rota.", owner: "   " });
    expect((await view(t, b.body.id)).owner).toBeUndefined();
    expect((await propose(t, { content: "x", owner: "o".repeat(257) })).status).toBe(400);
    expect((await propose(t, { content: "Long owner accepted.", owner: "o".repeat(256) })).status).toBe(200);
  });

  it("keeps source up to 64 bytes and source_prompt up to 2048 bytes, refusing longer ones", async () => {
    t = await openTestMemory();
    const ok = await propose(t, { content: "Sourced note.", source: "s".repeat(64), source_prompt: "p".repeat(2048) });
    expect(ok.status).toBe(200);
    const v = await view(t, ok.body.id);
    expect(v.source).toBe("s".repeat(64));
    expect(v.source_prompt).toBe("p".repeat(2048));
    const long = await propose(t, { content: "x", source: "s".repeat(65) });
    expect(long.status).toBe(400);
    expect(long.body.error.details).toMatchObject({ field: "source", max: 64 });
    expect((await propose(t, { content: "x", source_prompt: "p".repeat(2049) })).body.error.details).toMatchObject({ field: "source_prompt", max: 2048 });
  });
});

describe("the proposal score a reviewer reads (SPEC §1 item 4)", () => {
  it("is 0.4·safety + 0.25·novelty + 0.2·substance + 0.15·provenance with the reasons spelled out", async () => {
    t = await openTestMemory();
    // Five distinct analyzer terms: quarterli, invoic, reach, financ, auditor.
    const r = await propose(t, { content: "Quarterly invoices reach finance auditors", origin: "human" });
    expect(r.body.score).toBe(0.925);
    const v = await view(t, r.body.id);
    expect(v.score).toBe(0.925);
    expect(v.score_breakdown).toEqual({
      score: 0.925,
      components: [
        { name: "safety", weight: 0.4, value: 1, contribution: 0.4, why: "screen clean" },
        { name: "novelty", weight: 0.25, value: 1, contribution: 0.25, why: "no identical stored chunk" },
        { name: "substance", weight: 0.2, value: 0.625, contribution: 0.125, why: "5 distinct content terms" },
        { name: "provenance", weight: 0.15, value: 1, contribution: 0.15, why: "origin human" },
      ],
    });
  });

  it("counts the title's terms, caps substance at 1, and names the stored chunk a candidate duplicates", async () => {
    t = await openTestMemory();
    const stored = await (await t.req("POST", "/ingest", { title: "rota", content: "Quarterly invoices reach finance auditors" })).json();
    const dup = await propose(t, { content: "Quarterly invoices reach finance auditors", origin: "imported" });
    expect(parts(await view(t, dup.body.id)).novelty).toMatchObject({ value: 0, contribution: 0, why: `identical to stored chunk ${stored.id}` });
    // 0.4 + 0 + 0.125 + 0.15·0.6
    expect(dup.body.score).toBe(0.615);
    const titled = await propose(t, { title: "Ledger closing", content: "Quarterly invoices reach finance auditors again", origin: "human" });
    expect(parts(await view(t, titled.body.id)).substance).toMatchObject({ value: 0.875, why: "7 distinct content terms" });
    const wordy = await propose(t, { content: "Eleven distinct nouns: apple banana cherry damson elderberry fig grape hazelnut", origin: "human" });
    expect(parts(await view(t, wordy.body.id)).substance).toMatchObject({ value: 1, contribution: 0.2 });
  });

  it("lowers safety by the screen score and names the screen's reasons", async () => {
    t = await openTestMemory();
    // A zero-width run (a hidden payload) is a screen signal; a lone zero-width space is ordinary text (issue 36).
    const r = await propose(t, { content: "Rotate the\u200b\u200c\u200b\u200c signing key every 90 days.", origin: "human" });
    const v = await view(t, r.body.id);
    const safety = parts(v).safety;
    expect(v.screen.score).toBeGreaterThan(0);
    expect(safety.value).toBeCloseTo(1 - v.screen.score, 4);
    expect(safety.why).toBe(`screen ${v.screen.verdict}: ${v.screen.reasons.join(", ")}`);
    expect(safety.why).toContain("hidden_characters");
  });

  it("gives an unknown or absent origin the lowest provenance (0.5)", () => {
    const screen = { verdict: "clean", reasons: [], score: 0 } as unknown as Parameters<typeof scoreProposal>[0]["screen"];
    const p = (o?: string) => scoreProposal({ text: "alpha beta gamma", screen, ...(o === undefined ? {} : { origin: o }) }).components.find((c) => c.name === "provenance")!;
    expect(p()).toMatchObject({ value: 0.5, why: "origin unknown" });
    expect(p("robot")).toMatchObject({ value: 0.5, why: "origin robot" });
  });
});

describe("the review view (SPEC §2.7)", () => {
  it("shows stored bytes, their SHA-256, what the read seam removed, and hidden characters escaped", async () => {
    t = await openTestMemory();
    const content = "Bell\u0007 tab\tline\nDEL\u007f C1\u0085 nbsp\u00a0 tilde~ zero\u200bwidth é";
    const r = await propose(t, { content, title: "Esc\u200bape" });
    const v = await view(t, r.body.id);
    expect(v.raw_evidence.escaped).toBe("Bell\\u{0007} tab\tline\nDEL\\u{007F} C1\\u{0085} nbsp\u00a0 tilde~ zero\\u{200B}width é");
    expect(v.raw_evidence.bytes).toBe(new TextEncoder().encode(content).length);
    expect(v.raw_evidence.sha256).toBe(hex(content));
    expect(v.raw_evidence.removed_by_read_seam).toBe([...content].length - [...v.content].length);
    expect(v.raw_evidence.removed_by_read_seam).toBeGreaterThanOrEqual(3);
    expect(v.content).not.toMatch(/[\u0007\u007f\u0085\u200b]/);
    expect(v.title).toBe("Escape");
  });

  it("escapes every C0 control except tab and newline, and the whole C1 range", async () => {
    t = await openTestMemory();
    const content = "a\u0001b\u001fc\u0020d\u007ee\u009ff\u00a0g\rh";
    const r = await propose(t, { content });
    expect((await view(t, r.body.id)).raw_evidence.escaped).toBe("a\\u{0001}b\\u{001F}c d~e\\u{009F}f\u00a0g\\u{000D}h");
  });

  it("redacts title, source and source prompt for a reader without pii:read, and says so", async () => {
    t = await openTestMemory();
    const r = await propose(t, { title: "Mail ops@example.com", content: "Escalate after an hour.", source: "ops@example.com", source_prompt: "Who is ops@example.com?" });
    const plain = await t.memory.review.get(r.body.id, { piiRead: false });
    expect(plain).toMatchObject({ title: "Mail [redacted:email]", source: "[redacted:email]", source_prompt: "Who is [redacted:email]?", content: "Escalate after an hour.", pii_redacted: true });
    const full = await t.memory.review.get(r.body.id);
    expect(full).toMatchObject({ title: "Mail ops@example.com", source: "ops@example.com", source_prompt: "Who is ops@example.com?" });
    expect(full.pii_redacted).toBeUndefined();
    expect((await t.memory.review.list({}))[0].title).toBe("Mail ops@example.com");
    expect((await t.memory.review.list({ piiRead: false }))[0]).toMatchObject({ title: "Mail [redacted:email]", content_digest: full.content_digest });
  });

  it("binds content_digest to the documented bytes: kind, domain, canonical title (or null) and content under the fingerprint", async () => {
    t = await openTestMemory();
    const fp = t.memory.review.pipeline.fingerprint;
    const digest = (kind: string, domain: string, title: string | null, content: string) =>
      hex(`cairn-review-digest/1\n${fp}\n${JSON.stringify([kind, domain, title, content])}`);
    const a = await propose(t, { content: "Hidden\u200b space in the rota.", title: "Ro\u200bta" });
    expect((await view(t, a.body.id)).content_digest).toBe(digest("memory", "global", "Rota", "Hidden space in the rota."));
    const b = await propose(t, { content: "Untitled capture.", kind: "capture" });
    expect((await view(t, b.body.id)).content_digest).toBe(digest("capture", "global", null, "Untitled capture."));
  });

  it("after a decision shows decided_at and supersedes; before it, neither", async () => {
    t = await openTestMemory();
    const old = await (await t.req("POST", "/ingest", { title: "wifi", content: "The guest wifi password rotates yearly." })).json();
    const r = await propose(t, { content: "The guest wifi password rotates monthly now." });
    const before = await view(t, r.body.id);
    expect(before.decided_at).toBeUndefined();
    expect(before.supersedes).toBeUndefined();
    expect((await t.req("POST", `/proposals/${r.body.id}/approve?digest=${before.content_digest}&supersedes=${old.id}`)).status).toBe(200);
    const after = await view(t, r.body.id);
    expect(after).toMatchObject({ status: "approved", supersedes: old.id, decided_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });
});

describe("listing proposals", () => {
  it("pages with after and limit, filters by status, and 404s an unknown id", async () => {
    t = await openTestMemory();
    const ids: number[] = [];
    for (const n of ["one", "two", "three"]) ids.push((await propose(t, { content: `Paged proposal number ${n}.` })).body.id);
    expect((await t.memory.review.list({ limit: 0 })).map((v) => v.id)).toEqual([ids[0]]);
    expect((await t.memory.review.list({ after: ids[0], limit: 1 })).map((v) => v.id)).toEqual([ids[1]]);
    expect((await t.memory.review.list({ after: ids[0] })).map((v) => v.id)).toEqual([ids[1], ids[2]]);
    const res = await t.req("GET", `/proposals?after=${ids[1]}`);
    expect((await res.json()).map((v: View) => v.id)).toEqual([ids[2]]);
    await t.req("POST", `/proposals/${ids[1]}/reject`);
    expect((await (await t.req("GET", "/proposals?status=rejected")).json()).map((v: View) => v.id)).toEqual([ids[1]]);
    expect((await (await t.req("GET", "/proposals?status=approved")).json())).toEqual([]);
    expect((await (await t.req("GET", "/proposals")).json()).map((v: View) => v.id)).toEqual(ids);
    const missing = await t.req("GET", "/proposals/424242");
    expect(missing.status).toBe(404);
    expect((await missing.json()).error.code).toBe("not_found");
    const bad = await t.req("GET", "/proposals?status=done");
    expect((await bad.json()).error.details).toMatchObject({ field: "status", allowed: ["pending", "approved", "rejected"] });
  });
});

describe("write posture", () => {
  it("refuses a door that does not carry the posture", () => {
    expect(() => routeWrite("review", "/ingest" as never)).toThrow(TypeError);
    expect(() => routeWrite("open", "/ingest/markdown" as never)).toThrow("not a posture-carrying door: /ingest/markdown");
  });
});
