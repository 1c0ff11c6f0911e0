/**
 * The UMP file binding over HTTP (SPEC §4.2): batch import with a status per
 * record, the plain reply of a one-record batch, the markdown projection,
 * and a property test: generated records survive store → export (JSON and
 * markdown) → a fresh store → export, losslessly for id, kind, scope, time,
 * lifecycle, title and every L2 field.
 */
import { describe, expect, it } from "vitest";
import { didFromSeed } from "../../src/ump/did-key.ts";
import { useTestMemories } from "../_helpers/memories.ts";
import { independentVerify } from "./_independent-verifier.ts";
import { openKeyed, rec } from "./_keyed.ts";

const fresh = useTestMemories();

// A small deterministic PRNG (mulberry32), so a failure names a reproducible seed.
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)], chance: (p: number) => next() < p };
}

const WORDS = ["deploy", "cache", "Zürich", "naïve", "rotation", "[[Runbook]]", "[[Ops Guide|guide]]", "#oncall", "#infra/db", "—", "😀", "key: value", "`code`", "> quote"];

function generate(seed: number, n: number): Record<string, unknown>[] {
  const r = rng(seed);
  const owners = [1, 2, 3].map((i) => didFromSeed(new Uint8Array(32).fill(i)));
  const iso = (ms: number) => new Date(ms).toISOString();
  return Array.from({ length: n }, (_, i) => {
    const lines = Array.from({ length: 1 + r.int(4) }, () => Array.from({ length: 2 + r.int(6) }, () => r.pick(WORDS)).join(" "));
    if (r.chance(0.2)) lines.splice(1, 0, "---");
    if (r.chance(0.2)) lines.unshift("---", "title: looks like front matter", "---");
    const text = `note ${seed}-${i}: ${lines.join("\n")}${r.chance(0.3) ? "\n" : ""}`;
    const created = Date.parse("2025-01-01T00:00:00Z") + r.int(300) * 86_400_000;
    const scope: Record<string, unknown> = { owner: r.pick(owners), visibility: r.pick(["private", "shared", "public"]) };
    for (const k of ["user", "project", "agent", "session"]) if (r.chance(0.4)) scope[k] = `${k}-${r.int(3)}`;
    const record: Record<string, unknown> = {
      ump: "1.0", kind: r.pick(["semantic", "episodic", "procedural", "working", "identity"]), body: { text }, scope,
      time: { created: iso(created), observed: iso(created - r.int(5) * 60_000), valid_from: iso(created - 3_600_000), valid_to: r.chance(0.2) ? iso(created + 86_400_000) : null },
      lifecycle: { confidence: r.int(100) / 100, salience: r.int(100) / 100, status: r.pick(["active", "candidate"]), ...(r.chance(0.5) ? { decay: "P30D" } : {}) },
      provenance: {
        actor: r.pick(owners), actor_kind: r.pick(["user", "agent", "model", "import", "scan"]), method: r.pick(["user_correction", "extraction", "summary"]),
        ...(r.chance(0.5) ? { source: { ref: `https://example.com/doc/${i}`, provider: "web" } } : {}),
        ...(r.chance(0.5) ? { evidence: [{ ref: `urn:ump:${"a".repeat(10 + r.int(5))}`, weight: r.int(10) / 10 }] } : {}),
      },
    };
    if (r.chance(0.6)) record.title = `Title ${i} ${r.pick(WORDS)}`;
    if (r.chance(0.4)) (record.body as Record<string, unknown>).structured = { n: r.int(1000), tags: [r.pick(WORDS)], nested: { ok: r.chance(0.5), none: null } };
    if (r.chance(0.3)) record.relations = [{ type: r.pick(["about", "depends_on", "derived_from"]), target: r.chance(0.5) ? "entity:payments" : `urn:ump:${"b".repeat(12)}` }];
    if (r.chance(0.3)) record.supersedes = [`urn:ump:${"c".repeat(12 + r.int(4))}`];
    if (r.chance(0.3)) record.consent = { retention: "P100Y", exportable: true };
    if (r.chance(0.2)) record.x_extension = { kept: true };
    return record;
  });
}

const L2_FIELDS = ["ump", "id", "kind", "title", "body", "scope", "time", "lifecycle", "supersedes", "superseded_by", "relations", "provenance", "consent", "integrity", "x_extension"];
const pick = (r: Record<string, unknown>) => Object.fromEntries(L2_FIELDS.filter((k) => r[k] !== undefined).map((k) => [k, r[k]]));

describe("POST /ingest?format=ump", () => {
  it("processes each record of a batch on its own, with its own status", async () => {
    const m = await fresh();
    const body = { ump: "1.0", records: [rec("first batch record"), { kind: "semantic" }, rec("first batch record"), rec("third batch record", { kind: "nope" })] };
    const out = await (await m.req("POST", "/ingest?format=ump", body)).json();
    expect(out.results.map((r: { result: string }) => r.result)).toEqual(["created", "rejected", "merged", "rejected"]);
    expect(out.results[1].error.code).toBe("invalid_record");
    expect(out.results[2].id).toBe(out.results[0].id);
    expect(out).toMatchObject({ ump: "1.0", created: 1, merged: 1, rejected: 2 });
  });

  it("answers a one-record batch with the plain remember reply, or that record's error envelope", async () => {
    const m = await fresh();
    const ok = await m.req("POST", "/ingest?format=ump", { ump: "1.0", records: [rec("a lonely record")] });
    expect(Object.keys(await ok.json()).sort()).toEqual(["id", "result"]);
    const bad = await m.req("POST", "/ingest?format=ump", { ump: "1.0", records: [{ kind: "semantic" }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("invalid_record");
    const major = await m.req("POST", "/ingest?format=ump", { ump: "2.0", records: [rec("x")] });
    expect((await major.json()).error.code).toBe("invalid_record");
    expect((await m.req("POST", "/ingest?format=xml", {})).status).toBe(400);
  });

  it("imports the markdown projection (format=ump-md) and exports one markdown document", async () => {
    const m = await fresh();
    const md = "---\nkind: \"procedural\"\ntitle: \"Release\"\n---\nTag the release\n---\nkind: \"semantic\"\n---\nReleases happen on Tuesdays\n";
    const out = await (await m.req("POST", "/ingest?format=ump-md", md, { "content-type": "text/markdown" })).json();
    expect(out.created).toBe(2);
    const res = await m.req("GET", "/export?format=ump-md");
    expect(res.headers.get("content-type")).toContain("text/markdown");
    const text = await res.text();
    expect(text.match(/^---$/gm)).toHaveLength(4);
    expect(text).toContain("\nTag the release\n");
    expect(text).toContain('title: "Release"');
  });

  it("keeps imported signatures honest: a tampered signed record is rejected, the rest land and are re-signed", async () => {
    const k = await openKeyed();
    fresh.track(k);
    const tok = k.token(["read", "write", "export"]);
    const a = await (await k.as(tok, "POST", "/ump/remember", rec("signed on the source machine"))).json();
    const env = await (await k.as(tok, "GET", "/export?format=ump")).json();
    const record = env.records.find((r: { id: string }) => r.id === a.id);
    const target = await openKeyed();
    fresh.track(target);
    const tampered = { ...record, title: "edited in transit" };
    const res = await target.req("POST", "/ingest?format=ump", { ump: "1.0", records: [record, tampered] });
    const body = await res.json();
    expect(body.results.map((r: { result: string }) => r.result)).toEqual(["created", "rejected"]);
    expect(body.results[1].error.code).toBe("signature_invalid");
    const copy = (await (await target.req("GET", "/export?format=ump")).json()).records[0];
    expect(copy.id).toBe(record.id);
    expect(copy.integrity.content_hash).toBe(record.integrity.content_hash);
    expect(copy.integrity.signer).toBe(target.did);
    expect(independentVerify(copy)).toBe(true);
  });
});

describe("round trip property (SPEC §4.2: lossless for id, kind, scope, time, lifecycle, title and every L2 field)", () => {
  for (const seed of [7, 19, 2026]) {
    it(`seed ${seed}: store → JSON and markdown exports → fresh store → export is the identity`, async () => {
      const input = generate(seed, 40);
      const a = await fresh();
      const imported = await (await a.req("POST", "/ingest?format=ump", { ump: "1.0", records: input })).json();
      expect(imported.rejected, JSON.stringify(imported.results.filter((r: { result: string }) => r.result === "rejected"))).toBe(0);
      expect(imported.created).toBe(input.length);
      const envA = await (await a.req("GET", "/export?format=ump")).json();
      expect(envA.records).toHaveLength(input.length);
      for (const [i, r] of envA.records.entries()) {
        const { id: _id, integrity: _integrity, ...rest } = r;
        expect(rest, `record ${i}`).toEqual(input[i]);
      }
      const mdA = await (await a.req("GET", "/export?format=ump-md")).text();
      const viaMd = await fresh();
      expect((await (await viaMd.req("POST", "/ingest?format=ump-md", mdA)).json()).created).toBe(input.length);
      const viaJson = await fresh();
      expect((await (await viaJson.req("POST", "/ingest?format=ump", envA)).json()).created).toBe(input.length);
      for (const b of [viaMd, viaJson]) {
        const envB = await (await b.req("GET", "/export?format=ump")).json();
        expect(envB.records.map(pick)).toEqual(envA.records.map(pick));
        expect(await (await b.req("GET", "/export?format=ump-md")).text()).toBe(mdA);
      }
    });
  }
});
