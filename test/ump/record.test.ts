import { describe, expect, it } from "vitest";
import { isMemoryError } from "../../src/core/errors.ts";
import { parseIsoDuration } from "../../src/ump/iso-duration.ts";
import { normaliseRecord } from "../../src/ump/record.ts";
import { applyRedact, parseRedactPath } from "../../src/ump/redact.ts";

const now = new Date("2026-07-01T12:00:00Z");
const owner = "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp";
const opts = { now, owner };

function problemsOf(input: unknown): string[] {
  try {
    normaliseRecord(input, opts);
  } catch (e) {
    if (isMemoryError(e) && e.code === "invalid_record") return e.details!.problems as string[];
    throw e;
  }
  return [];
}

describe("normaliseRecord", () => {
  it("completes a partial record with defaults taken from the options", () => {
    expect(normaliseRecord({ kind: "semantic", body: { text: "Use pnpm" } }, opts)).toEqual({
      ump: "1.0",
      kind: "semantic",
      body: { text: "Use pnpm" },
      scope: { owner, visibility: "private" },
      time: { created: "2026-07-01T12:00:00.000Z", observed: "2026-07-01T12:00:00.000Z", valid_from: "2026-07-01T12:00:00.000Z", valid_to: null },
      lifecycle: { status: "active" },
      provenance: { actor: owner, actor_kind: "agent", method: "remember" },
    });
  });

  it("keeps what the writer gave and chains time defaults from it", () => {
    const r = normaliseRecord({
      kind: "episodic",
      body: { text: "Deploy failed", structured: { run: 12 } },
      scope: { owner: "did:key:z6MkOther", project: "p", visibility: "shared" },
      time: { created: "2026-06-01T00:00:00Z" },
      provenance: { actor: "claude-code", actor_kind: "model" },
    }, { ...opts, method: "ump.remember" });
    expect(r.scope).toEqual({ owner: "did:key:z6MkOther", project: "p", visibility: "shared" });
    expect(r.time).toEqual({ created: "2026-06-01T00:00:00Z", observed: "2026-06-01T00:00:00Z", valid_from: "2026-06-01T00:00:00Z", valid_to: null });
    expect(r.provenance).toEqual({ actor: "claude-code", actor_kind: "model", method: "ump.remember" });
  });

  it("normalises ump 0.1 to 1.0 and refuses an unknown major version", () => {
    expect(normaliseRecord({ ump: "0.1", kind: "working", body: { text: "x" } }, opts).ump).toBe("1.0");
    expect(normaliseRecord({ ump: "1.0", kind: "working", body: { text: "x" } }, opts).ump).toBe("1.0");
    expect(problemsOf({ ump: "2.0", kind: "working", body: { text: "x" } })).toEqual([expect.stringMatching(/^ump: unsupported version "2.0"/)]);
    expect(problemsOf({ ump: 1, kind: "working", body: { text: "x" } })).toHaveLength(1);
  });

  it("refuses a record without body.text with invalid_record (conformance check 'validation')", () => {
    for (const input of [{ kind: "semantic" }, { kind: "semantic", body: {} }, { kind: "semantic", body: { text: "" } }, { kind: "semantic", body: "text" }]) {
      let error: unknown;
      try {
        normaliseRecord(input, opts);
      } catch (e) {
        error = e;
      }
      expect(isMemoryError(error) && error.code).toBe("invalid_record");
      expect((error as Error).message).toMatch(/^Invalid record: body/);
    }
  });

  it("reports every problem at once", () => {
    const problems = problemsOf({
      id: "urn:uuid:1",
      kind: "fact",
      title: "",
      body: { text: "ok" },
      scope: { visibility: "friends", project: 3 },
      time: { created: "yesterday", valid_from: "2026-07-01T00:00:00Z", valid_to: "2026-06-01T00:00:00Z" },
      lifecycle: { confidence: 1.5, status: "alive" },
      supersedes: ["nope"],
      relations: [{ type: "about", target: "pnpm" }],
      provenance: { actor_kind: "robot" },
      consent: { retention: "1 year", exportable: "yes", redact: ["a..b"] },
      integrity: { content_hash: "sha256:00" },
    });
    for (const field of ["id", "kind", "title", "scope.visibility", "scope.project", "time.created", "time.valid_to", "lifecycle.status", "lifecycle.confidence", "supersedes", "relations", "provenance.actor_kind", "consent.retention", "consent.exportable", "consent.redact", "integrity"]) {
      expect(problems.some((p) => p.startsWith(field + ":")), field).toBe(true);
    }
  });

  it("requires an owner when the writer is unknown", () => {
    expect(() => normaliseRecord({ kind: "semantic", body: { text: "x" } }, { now })).toThrow(/scope.owner/);
  });

  it("refuses values JSON cannot carry and non-object input", () => {
    expect(problemsOf({ kind: "semantic", body: { text: "x" }, lifecycle: { salience: NaN } })[0]).toMatch(/non-finite/);
    expect(problemsOf([{ kind: "semantic" }])).toEqual(["record: must be a JSON object"]);
    expect(problemsOf(null)).toEqual(["record: must be a JSON object"]);
  });

  it("preserves extension members and does not mutate the input", () => {
    const input = { kind: "identity", body: { text: "x", format: "md" }, x_vendor: { a: 1 }, relations: [{ type: "about", target: "entity:pnpm" }] };
    const copy = structuredClone(input);
    const r = normaliseRecord(input, opts);
    expect(r.x_vendor).toEqual({ a: 1 });
    expect(r.body).toEqual({ text: "x", format: "md" });
    expect(input).toEqual(copy);
  });
});

describe("applyRedact (consent.redact)", () => {
  const record = {
    ump: "1.0",
    body: { text: "t", structured: { token: "s3cret", keep: 1, "a.b": 2 } },
    provenance: { evidence: [{ ref: "r1", weight: 1 }, { ref: "r2", weight: 0.5 }] },
    relations: [{ type: "about", target: "entity:a" }, { type: "about", target: "entity:b" }],
    consent: { redact: ["body.structured.token"] },
    integrity: { content_hash: "blake3:aa" },
  };

  it("uses the record's own redact list by default and drops the now-stale integrity block", () => {
    const out = applyRedact(record);
    expect(out.body.structured).toEqual({ keep: 1, "a.b": 2 });
    expect(out.integrity).toBeUndefined();
    expect(record.body.structured.token).toBe("s3cret");
  });

  type Rec = typeof record;
  const cases: [string[], (r: Rec) => boolean][] = [
    [["$.body.structured.token"], (r) => r.body.structured.token === undefined && r.body.structured.keep === 1],
    [["provenance.evidence[*].ref"], (r) => r.provenance.evidence.every((e) => !Object.hasOwn(e, "ref") && e.weight !== undefined)],
    [["relations[0]"], (r) => r.relations.length === 1 && r.relations[0]!.target === "entity:b"],
    [["$.relations[*]"], (r) => r.relations.length === 0],
    [["relations[0]", "relations[0]"], (r) => r.relations.length === 0],
    [["$['body']['structured']['a.b']"], (r) => !Object.hasOwn(r.body.structured, "a.b") && r.body.structured.keep === 1],
    [["body.structured.*"], (r) => Object.keys(r.body.structured).length === 0],
  ];
  it.each(cases)("removes %j", (paths, check) => {
    expect(check(applyRedact(record, paths))).toBe(true);
  });

  it("leaves the record (and its integrity) alone when no path matches", () => {
    expect(applyRedact(record, ["body.missing.deep", "relations[9]", "body.text.length"])).toEqual(record);
  });

  it("rejects paths outside the supported syntax", () => {
    for (const bad of ["", "$", "a..b", "a[", "a[-1]", "a.b]"]) expect(parseRedactPath(bad), bad).toBeNull();
    expect(() => applyRedact(record, ["a..b"])).toThrow(/Unsupported redact path/);
    expect(parseRedactPath("$.a[2].*")).toEqual([{ key: "a" }, { index: 2 }, { wildcard: true }]);
  });
});

describe("parseIsoDuration (consent.retention)", () => {
  const day = 86_400_000;
  it.each([
    ["P365D", 365 * day],
    ["P1Y", 365 * day],
    ["P1M", 30 * day],
    ["P2W", 14 * day],
    ["PT36H", 1.5 * day],
    ["PT1.5S", 1500],
    ["P1DT2H3M4S", day + 2 * 3_600_000 + 3 * 60_000 + 4000],
    ["PT0S", 0],
  ])("parses %s", (text, ms) => expect(parseIsoDuration(text)).toBe(ms));

  it.each(["P", "PT", "1D", "P1H", "", "P1.5D", "p1d", "P1DT"])("rejects %j", (text) => expect(parseIsoDuration(text)).toBeNull());
});
