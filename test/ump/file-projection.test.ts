import matter from "gray-matter";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/ump/content-hash.ts";
import { parseUmpJson, parseUmpMarkdown, serialiseUmpJson, serialiseUmpMarkdown } from "../../src/ump/file-projection.ts";
import { signRecord, verifyRecord } from "../../src/ump/sign.ts";

/** mulberry32: a tiny seeded PRNG so every run sees the same "random" records. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FRAGMENTS = [
  "a", "Z", " ", "  ", "\t", "\n", "\r\n", "\r", "---", "--- ", "\\", "\\\\", "\"", "'", "`", "#", "- ", ": ", "{", "}", "[", "]",
  "é", "ß", "日本語", "😀", "👩‍👩‍👧", "עברית", "\u0301", "\u200b", "\u200f", "\u2028", "\u2029", "\u0085", "\u007f", "\u009f",
  "\u0000", "\u0001", "\u001b", "\ufeff", "\uffff", "null", "true", "1e3", "~", "|", ">", "&anchor", "*alias", "!tag", "%", "@", "...",
];

function gen(rand: () => number) {
  const int = (n: number) => Math.floor(rand() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const maybe = <T>(p: number, f: () => T): T | undefined => (rand() < p ? f() : undefined);
  const codePoint = () => {
    const ranges: [number, number][] = [[0x20, 0x7e], [0xa0, 0x2fff], [0x3000, 0xd7ff], [0xe000, 0xfffd], [0x10000, 0x10ffff]];
    const [lo, hi] = pick(ranges);
    return String.fromCodePoint(lo + int(hi - lo + 1));
  };
  const str = (max = 12) => Array.from({ length: int(max) }, () => (rand() < 0.6 ? pick(FRAGMENTS) : codePoint())).join("");
  const text = () => {
    const lines = Array.from({ length: 1 + int(6) }, () =>
      rand() < 0.25 ? pick(["---", "\\---", "\\\\---", "---\r", "--- ", " ---", "----", ""]) : str(8));
    return lines.join("\n") + pick(["", "", "\n", "\n\n", "\r\n"]);
  };
  const time = () => new Date(Date.UTC(2000 + int(40), int(12), 1 + int(28), int(24), int(60), int(60))).toISOString().replace(".000Z", pick(["Z", ".000Z", "+02:00", ".5Z"]));
  const num = () => pick([0, 1, 0.5, 0.1 + 0.2, 1e21, 5e-324, -3.25, 123456789012, rand()]);
  const json = (depth: number): unknown => {
    const k = int(depth > 2 ? 4 : 6);
    if (k === 0) return str();
    if (k === 1) return num();
    if (k === 2) return pick([null, true, false]);
    if (k === 3) return str(3);
    if (k === 4) return Array.from({ length: int(4) }, () => json(depth + 1));
    return Object.fromEntries(Array.from({ length: int(4) }, () => [str(4), json(depth + 1)]));
  };
  const id = () => "urn:ump:" + Array.from({ length: 52 }, () => pick([..."abcdefghijklmnopqrstuvwxyz234567"])).join("");

  const record: Record<string, unknown> = {
    ump: "1.0",
    id: id(),
    kind: pick(["semantic", "episodic", "procedural", "working", "identity"]),
    title: maybe(0.5, () => str(10) || "t"),
    body: { text: text(), structured: maybe(0.4, () => json(0)), format: maybe(0.1, () => "markdown") },
    scope: { owner: "did:key:z6Mk" + str(5), project: maybe(0.5, () => str(6)), agent: maybe(0.3, () => "claude-code"), visibility: pick(["private", "shared", "public"]) },
    time: { created: time(), observed: time(), valid_from: time(), valid_to: rand() < 0.5 ? null : time() },
    lifecycle: maybe(0.7, () => ({ confidence: rand(), salience: maybe(0.5, () => rand()), decay: maybe(0.3, () => "half_life:P90D"), status: pick(["active", "candidate", "tombstoned"]) })),
    supersedes: maybe(0.3, () => [id()]),
    superseded_by: maybe(0.3, () => (rand() < 0.5 ? [] : [id(), id()])),
    relations: maybe(0.4, () => [{ type: pick(["about", "contradicts", "depends_on"]), target: rand() < 0.5 ? id() : "entity:" + str(4) }]),
    provenance: maybe(0.8, () => ({ actor: str(6), actor_kind: pick(["user", "agent", "model", "import", "scan"]), method: str(5), source: maybe(0.5, () => ({ ref: str(5), provider: maybe(0.5, () => "chatgpt") })), evidence: maybe(0.5, () => [{ ref: str(4), weight: num() }]) })),
    consent: maybe(0.4, () => ({ retention: "P365D", exportable: rand() < 0.5, redact: ["body.structured.token"] })),
    [pick(["x_vendor", "weird: key", "-dash", "\"quoted\"", "ключ", "__proto__"])]: maybe(0.2, () => json(1)),
  };
  return JSON.parse(JSON.stringify(record)) as Record<string, unknown>; // drop undefined members, as a JSON reader would
}

const RECORDS = (() => {
  const rand = prng(20260730);
  return Array.from({ length: 240 }, () => gen(rand));
})();

describe("*.ump.md projection", () => {
  it("is exercised by a generator that really produces the hard cases", () => {
    const bodies = RECORDS.map((r) => (r.body as { text: string }).text);
    const count = (pred: (t: string) => boolean) => bodies.filter(pred).length;
    expect(count((t) => /(^|\n)---(\n|$)/.test(t))).toBeGreaterThan(20);
    expect(count((t) => /(^|\n)\\+---(\r?\n|$)/.test(t))).toBeGreaterThan(10);
    expect(count((t) => t.endsWith("\n"))).toBeGreaterThan(20);
    expect(count((t) => /[\u{10000}-\u{10ffff}]/u.test(t) && /["'\\]/.test(t))).toBeGreaterThan(20);
    expect(RECORDS.filter((r) => (r.time as { valid_to: unknown }).valid_to === null).length).toBeGreaterThan(50);
    expect(RECORDS.filter((r) => (r.body as { structured?: unknown }).structured !== undefined).length).toBeGreaterThan(50);
    expect(RECORDS.filter((r) => Object.keys(r).some((k) => !/^[a-z_]+$/.test(k))).length).toBeGreaterThan(5);
  });

  it("round-trips 240 generated records losslessly: records → md → records, and md → records → md byte for byte", () => {
    const md = serialiseUmpMarkdown(RECORDS);
    const back = parseUmpMarkdown(md);
    expect(back).toHaveLength(RECORDS.length);
    for (const [i, r] of RECORDS.entries()) expect(back[i], `record ${i}`).toEqual(r);
    expect(serialiseUmpMarkdown(back)).toBe(md);
  });

  it("round-trips each record on its own, and preserves the content hash so signatures still verify", () => {
    const key = new Uint8Array(32).fill(9);
    for (const [i, r] of RECORDS.entries()) {
      const signed = signRecord(r, key);
      const [back] = parseUmpMarkdown(serialiseUmpMarkdown([signed]));
      expect(back, `record ${i}`).toEqual(signed);
      expect(contentHash(back!)).toBe(signed.integrity.content_hash);
      expect(verifyRecord(back!)).toEqual({ ok: true, signed: true });
    }
  });

  it("writes front matter any YAML reader parses to the same data", () => {
    for (const [i, r] of RECORDS.entries()) {
      const md = serialiseUmpMarkdown([r]);
      const end = md.indexOf("\n---\n", 4);
      const { data } = matter(md.slice(0, end + 5), { excerpt: false });
      const { body, ...meta } = r as { body: Record<string, unknown> };
      const { text: _text, ...bodyRest } = body;
      const expected = Object.keys(bodyRest).length > 0 ? { ...meta, body: bodyRest } : meta;
      expect(JSON.parse(JSON.stringify(data)), `record ${i}`).toEqual(expected);
    }
  });

  it("writes front matter of YAML-printable characters only (YAML 1.2 §5.1), with no YAML 1.1 line breaks", () => {
    const md = serialiseUmpMarkdown(RECORDS.map((r) => ({ ...r, body: { text: "" } })));
    const printable = /^[\t\n\r\u0020-\u007e\u00a0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]*$/u;
    expect(printable.test(md)).toBe(true);
    expect(/[\u0085\u2028\u2029\ufeff]/.test(md)).toBe(false);
    expect(md).toContain("\\u2028"); // the generator did produce them; they were escaped
  });

  it("keeps --- lines inside a body from ending the record, using the CommonMark escape", () => {
    const r = { ump: "1.0", id: "urn:ump:aa", kind: "semantic", body: { text: "intro\n---\nump: \"1.0\"\n---\n\\---\nend\n" } };
    const md = serialiseUmpMarkdown([r, r]);
    expect(md).toContain("\nintro\n\\---\nump: \"1.0\"\n\\---\n\\\\---\nend\n\n---\n");
    expect(parseUmpMarkdown(md)).toEqual([r, r]);
  });

  it("reads hand-written YAML front matter (the UMP spec style) and CRLF files", () => {
    const md = [
      "---",
      "ump: \"0.1\"",
      "id: urn:ump:9f2c",
      "kind: procedural",
      "scope: { owner: did:key:z6MkOwner, project: example/recall, visibility: private }",
      "time: { observed: 2026-06-04T09:58:00Z, valid_from: 2026-06-04T00:00:00Z }",
      "provenance: { actor_kind: user, method: user_correction }",
      "---",
      "",
      "Always run `pnpm gate` before handoff.",
      "",
    ].join("\n");
    const [r] = parseUmpMarkdown(md);
    expect(r).toEqual({
      ump: "0.1",
      id: "urn:ump:9f2c",
      kind: "procedural",
      scope: { owner: "did:key:z6MkOwner", project: "example/recall", visibility: "private" },
      time: { observed: "2026-06-04T09:58:00Z", valid_from: "2026-06-04T00:00:00Z" },
      provenance: { actor_kind: "user", method: "user_correction" },
      body: { text: "\nAlways run `pnpm gate` before handoff." },
    });
    const crlf = serialiseUmpMarkdown([RECORDS[0]!]).replaceAll("\n", "\r\n");
    expect(parseUmpMarkdown(crlf)[0]!.kind).toBe(RECORDS[0]!.kind);
  });

  it("refuses text that is not a projection", () => {
    expect(() => parseUmpMarkdown("just some notes\n")).toThrow(/expected a --- front-matter line/);
    expect(() => parseUmpMarkdown("---\nkind: \"semantic\"\n")).toThrow(/not closed/);
    expect(() => parseUmpMarkdown("---\n: : [\n---\nbody\n")).toThrow(/neither key: JSON lines nor YAML/);
    expect(() => serialiseUmpMarkdown([{ kind: "semantic", body: {} }])).toThrow(/body.text/);
    expect(parseUmpMarkdown("")).toEqual([]);
  });
});

describe("*.ump.json", () => {
  it("round-trips the generated records as a JSON array and as NDJSON", () => {
    expect(parseUmpJson(serialiseUmpJson(RECORDS))).toEqual(RECORDS);
    const nd = serialiseUmpJson(RECORDS, { ndjson: true });
    expect(nd.split("\n")).toHaveLength(RECORDS.length + 1);
    expect(parseUmpJson(nd)).toEqual(RECORDS);
  });

  it("agrees with the markdown projection in both directions", () => {
    const md = serialiseUmpMarkdown(RECORDS);
    const viaJson = parseUmpJson(serialiseUmpJson(parseUmpMarkdown(md)));
    expect(serialiseUmpMarkdown(viaJson)).toBe(md);
    // JSON → md → JSON keeps every member and value; member order is not data in JSON.
    const json = serialiseUmpJson(RECORDS);
    expect(parseUmpJson(serialiseUmpJson(parseUmpMarkdown(serialiseUmpMarkdown(parseUmpJson(json)))))).toEqual(RECORDS);
  });

  it("accepts a single record, the {ump, records} export envelope and NDJSON with blank lines", () => {
    const r = { ump: "1.0", kind: "semantic", body: { text: "x" } };
    expect(parseUmpJson(JSON.stringify(r))).toEqual([r]);
    expect(parseUmpJson(JSON.stringify({ ump: "1.0", records: [r, r] }))).toEqual([r, r]);
    expect(parseUmpJson(`\n${JSON.stringify(r)}\n\n${JSON.stringify(r)}\n`)).toEqual([r, r]);
  });

  it("names the line of a broken NDJSON record and refuses non-record values", () => {
    expect(() => parseUmpJson('{"a":1}\n{"b":\n')).toThrow(/Line 2: not valid JSON/);
    expect(() => parseUmpJson('{"a":1}\n[1]\n')).toThrow(/Line 2: a record must be a JSON object/);
    expect(() => parseUmpJson("[1, 2]")).toThrow(/record object/);
    expect(() => parseUmpJson("42")).toThrow(/Expected/);
  });
});
