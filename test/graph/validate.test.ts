import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/core/errors.ts";
import {
  cleanEntityName,
  isRelationType,
  normalizeEntityName,
  normalizeRelationType,
  truncateEntityName,
  unlistedEndpoints,
  validateGraphInput,
  validateRelationType,
} from "../../src/graph/validate.ts";

function caught(fn: () => unknown): MemoryError {
  try {
    fn();
  } catch (e) {
    if (e instanceof MemoryError) return e;
    throw e;
  }
  throw new Error("expected a MemoryError");
}

describe("entity names", () => {
  it("lowercases, trims and collapses spaces for the internal key", () => {
    expect(normalizeEntityName("  Priya   Raman ")).toBe("priya raman");
    expect(normalizeEntityName("payments-api_v2")).toBe("payments-api_v2");
  });

  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["over 100", "a".repeat(101)],
    ["punctuation", "Node.js"],
    ["unicode", "Zoë"],
    ["tab", "a\tb"],
    ["not a string", 42],
  ])("refuses a name that is %s with name_invalid", (_label, name) => {
    expect(caught(() => normalizeEntityName(name)).code).toBe("name_invalid");
  });

  it("accepts exactly 100 characters", () => {
    expect(normalizeEntityName("A".repeat(100))).toBe("a".repeat(100));
  });
});

describe("relation types", () => {
  it.each(["works_at", "part_of", "ns:custom_rel", "a", "x".repeat(62), "ab:" + "x".repeat(61)])("accepts %s", (t) => {
    expect(validateRelationType(t)).toBe(t);
  });

  it.each([
    ["empty", ""],
    ["uppercase", "Works_At"],
    ["base over 62", "x".repeat(63)],
    ["total over 64", "abc:" + "x".repeat(61)],
    ["two prefixes", "a:b:c"],
    ["empty base", "ns:"],
    ["hyphen", "works-at"],
    ["not a string", null],
  ])("refuses a type that is %s with relation_invalid", (_label, t) => {
    expect(caught(() => validateRelationType(t)).code).toBe("relation_invalid");
  });

  it("normalises hand-written relation types or returns null", () => {
    expect(normalizeRelationType(" Works At ")).toBe("works_at");
    expect(normalizeRelationType("ops:Owned-By")).toBe("ops:owned_by");
    expect(normalizeRelationType("what?")).toBeNull();
    expect(isRelationType("is_a")).toBe(true);
  });
});

describe("cleaners for free text", () => {
  it("strips punctuation to fit the charset", () => {
    expect(cleanEntityName("Node.js")).toBe("Nodejs");
    expect(cleanEntityName("O'Brien & Sons")).toBe("OBrien Sons");
    expect(cleanEntityName("team/platform")).toBe("team platform");
    expect(cleanEntityName("!!!")).toBeNull();
    expect(cleanEntityName("w".repeat(101))).toBeNull();
  });

  it("truncates long titles at a word boundary", () => {
    const long = "word ".repeat(40);
    const t = truncateEntityName(long)!;
    expect(t.length).toBeLessThanOrEqual(100);
    expect(t.endsWith("word")).toBe(true);
  });
});

describe("validateGraphInput", () => {
  it("returns display-form items with normalised windows", () => {
    const out = validateGraphInput(
      [{ name: "Priya  Raman", type: "person" }, { name: "Acme" }],
      [{ from: "Priya Raman", to: "Acme", type: "works_at", valid_at: "2024-01-01" }],
    );
    expect(out.entities).toEqual([{ name: "Priya Raman", type: "person" }, { name: "Acme" }]);
    expect(out.relations).toEqual([{ from: "Priya Raman", to: "Acme", type: "works_at", valid_at: "2024-01-01T00:00:00.000Z" }]);
  });

  it("caps both arrays at 200 before looking at items", () => {
    const many = Array.from({ length: 201 }, () => ({ nonsense: true }));
    expect(caught(() => validateGraphInput(many, [])).code).toBe("too_many_entities");
    expect(caught(() => validateGraphInput([], many)).code).toBe("too_many_relations");
    const ok = Array.from({ length: 200 }, (_, i) => ({ name: `e${i}` }));
    expect(validateGraphInput(ok, []).entities).toHaveLength(200);
  });

  it("names the field and index of the first bad item", () => {
    const e = caught(() => validateGraphInput([{ name: "ok" }, { name: "bad!" }], []));
    expect(e.code).toBe("name_invalid");
    expect(e.details).toMatchObject({ field: "entities[1].name", index: 1 });

    const t = caught(() => validateGraphInput([{ name: "ok", type: "t".repeat(65) }], []));
    expect(t.code).toBe("entity_invalid");
    expect(t.details).toMatchObject({ field: "entities[0].type", index: 0 });

    const r = caught(() => validateGraphInput([], [{ from: "a", to: "b", type: "works_at" }, { from: "a", to: "b", type: "Bad" }]));
    expect(r.code).toBe("relation_invalid");
    expect(r.details).toMatchObject({ field: "relations[1].type", index: 1 });

    const n = caught(() => validateGraphInput([], [{ from: "a", to: "", type: "x" }]));
    expect(n.code).toBe("name_invalid");
    expect(n.details).toMatchObject({ field: "relations[0].to", index: 0 });
  });

  it("refuses bad or inverted valid windows", () => {
    expect(caught(() => validateGraphInput([], [{ from: "a", to: "b", type: "x", valid_at: "soon" }])).details)
      .toMatchObject({ field: "relations[0].valid_at" });
    const inv = caught(() => validateGraphInput([], [{ from: "a", to: "b", type: "x", valid_at: "2024-02-01", invalid_at: "2024-01-01" }]));
    expect(inv.code).toBe("relation_invalid");
  });

  it("lists relation endpoints missing from entities[]", () => {
    const input = validateGraphInput([{ name: "Acme" }], [
      { from: "Priya", to: "acme", type: "works_at" },
      { from: "priya", to: "Ledger", type: "created" },
    ]);
    expect(unlistedEndpoints(input)).toEqual(["priya", "ledger"]);
  });
});
