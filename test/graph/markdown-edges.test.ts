import { describe, expect, it } from "vitest";
import { extractAnnotations, headingPartOf, taxonomyEdges } from "../../src/graph/linker.ts";

describe("headingPartOf", () => {
  it("links each heading to its nearest enclosing heading", () => {
    const edges = headingPartOf([
      { depth: 0, text: "Payments Handbook" },
      { depth: 1, text: "Services" },
      { depth: 2, text: "Ledger" },
      { depth: 3, text: "Storage" },
      { depth: 2, text: "Vault" },
      { depth: 1, text: "People" },
      { depth: 3, text: "On-call" },
    ]);
    expect(edges.map((e) => `${e.from} > ${e.to}`)).toEqual([
      "Services > Payments Handbook",
      "Ledger > Services",
      "Storage > Ledger",
      "Vault > Services",
      "People > Payments Handbook",
      "On-call > People",
    ]);
    expect(edges.every((e) => e.type === "part_of")).toBe(true);
  });

  it("cleans heading text, skips unusable headings and repeats", () => {
    const edges = headingPartOf([
      { depth: 1, text: "**Ledger** (v2)" },
      { depth: 2, text: "???" },
      { depth: 2, text: "Storage" },
      { depth: 2, text: "Storage" },
      { depth: 2, text: "LEDGER (v2)" },
    ]);
    expect(edges).toEqual([{ from: "Storage", type: "part_of", to: "Ledger v2" }]);
    expect(headingPartOf([])).toEqual([]);
  });
});

describe("extractAnnotations", () => {
  it("normalises relation and entity and keeps spans", () => {
    const text = "Ledger [[Depends On::Postgres]] and [[ops:Owned-By::Payments Team|the team]] plus [[uses::Node.js]].";
    const { relations, invalid } = extractAnnotations(text);
    expect(relations.map((r) => [r.type, r.to])).toEqual([
      ["depends_on", "Postgres"], ["ops:owned_by", "Payments Team"], ["uses", "Nodejs"],
    ]);
    expect(text.slice(...relations[0].span)).toBe("[[Depends On::Postgres]]");
    expect(invalid).toEqual([]);
  });

  it("reports invalid annotations instead of throwing", () => {
    const text = "[[what?::Redis]] [[uses::!!!]] [[a:b:c::Redis]] [[uses::" + "x".repeat(101) + "]] [[uses::Redis]] [[USES::redis]]";
    const { relations, invalid } = extractAnnotations(text);
    expect(relations).toEqual([{ type: "uses", to: "Redis", span: expect.any(Array) }]);
    expect(invalid.map((i) => i.reason)).toEqual(["relation_invalid", "name_invalid", "relation_invalid", "name_invalid"]);
    expect(invalid[0].raw).toBe("[[what?::Redis]]");
  });

  it("ignores plain wikilinks", () => {
    expect(extractAnnotations("See [[Ledger]] and [[ledger#storage]].")).toEqual({ relations: [], invalid: [] });
  });
});

describe("taxonomyEdges", () => {
  it("tags the note and aliases point at the note", () => {
    expect(taxonomyEdges("Priya Raman", ["#people", "team/payments"], ["Priya", "PR"])).toEqual([
      { from: "Priya Raman", type: "tagged_with", to: "people" },
      { from: "Priya Raman", type: "tagged_with", to: "team payments" },
      { from: "Priya", type: "alias_of", to: "Priya Raman" },
      { from: "PR", type: "alias_of", to: "Priya Raman" },
    ]);
  });

  it("accepts comma-separated strings, skips junk, self-aliases and repeats", () => {
    expect(taxonomyEdges("Ledger", "infra, infra, ,  payments", [42, "ledger", "!!", "Ledger v1"])).toEqual([
      { from: "Ledger", type: "tagged_with", to: "infra" },
      { from: "Ledger", type: "tagged_with", to: "payments" },
      { from: "Ledger v1", type: "alias_of", to: "Ledger" },
    ]);
    expect(taxonomyEdges("???", ["a"], [])).toEqual([]);
    expect(taxonomyEdges("Ledger", undefined, null)).toEqual([]);
  });

  it("cuts a long title to an entity name at a word boundary", () => {
    const title = "A very long note title ".repeat(10).trim();
    const [edge] = taxonomyEdges(title, ["t"], []);
    expect(edge.from.length).toBeLessThanOrEqual(100);
    expect(title.startsWith(edge.from)).toBe(true);
  });
});
