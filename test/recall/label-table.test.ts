import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { IngestKind } from "../../src/core/types.ts";
import { type ChunkLabels, LabelTable } from "../../src/recall/label-table.ts";

const SOURCES: IngestKind[] = ["structured", "memory", "markdown", "conversation"] as IngestKind[];

const labelArb = fc.record({
  domain: fc.constantFrom("global", "pottery", "kilns", "a".repeat(40)),
  source: fc.constantFrom(...SOURCES),
  createdMs: fc.integer({ min: 0, max: 4_102_444_800_000 }),
  flagged: fc.boolean(),
  expiresMs: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: undefined }),
}).map((l) => {
  const out: ChunkLabels = { domain: l.domain, source: l.source, createdMs: l.createdMs, flagged: l.flagged };
  if (l.expiresMs !== undefined) out.expiresMs = l.expiresMs;
  return out;
});

// Dense ids mostly, with a few far-away ones (the overflow path) and a few that force growth.
const idArb = fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 0, max: 3000 }) }, { weight: 1, arbitrary: fc.integer({ min: 3001, max: 2 ** 40 }) });

describe("chunk labels in typed arrays (issue 25)", () => {
  it("answers exactly as a Map of label objects under any sequence of sets and deletes", () => {
    fc.assert(fc.property(
      fc.array(fc.oneof(fc.tuple(fc.constant("set" as const), idArb, labelArb), fc.tuple(fc.constant("delete" as const), idArb, fc.constant(undefined))), { maxLength: 300 }),
      (ops) => {
        const table = new LabelTable(16);
        const model = new Map<number, ChunkLabels>();
        for (const [op, id, l] of ops) {
          if (op === "set") {
            table.set(id, l!);
            model.set(id, l!);
          } else expect(table.delete(id)).toBe(model.delete(id));
        }
        expect(table.size).toBe(model.size);
        expect([...table.keys()].sort((a, b) => a - b)).toEqual([...model.keys()].sort((a, b) => a - b));
        for (const [id, l] of model) {
          expect(table.has(id)).toBe(true);
          expect(table.get(id)).toEqual(l);
          expect(table.domainOf(id)).toBe(l.domain);
        }
        for (const [, id] of ops) if (!model.has(id)) expect(table.get(id)).toBeUndefined();
      },
    ), { numRuns: 200 });
  });

  it("keeps an absent expiry absent, a zero expiry zero, and hundreds of domains apart", () => {
    const t = new LabelTable();
    t.set(1, { domain: "global", source: "memory", createdMs: 5, flagged: false });
    t.set(2, { domain: "global", source: "memory", createdMs: 5, flagged: true, expiresMs: 0 });
    expect(t.get(1)).not.toHaveProperty("expiresMs");
    expect(t.get(2)).toEqual({ domain: "global", source: "memory", createdMs: 5, flagged: true, expiresMs: 0 });
    for (let i = 0; i < 600; i++) t.set(10 + i, { domain: `d${i}`, source: "structured", createdMs: i, flagged: false });
    for (let i = 0; i < 600; i++) expect(t.get(10 + i)?.domain).toBe(`d${i}`);
    expect(t.size).toBe(602);
  });

  it("refuses ids that are not non-negative integers", () => {
    const t = new LabelTable();
    expect(() => t.set(-1, { domain: "g", source: "memory", createdMs: 0, flagged: false })).toThrow(RangeError);
    expect(() => t.set(1.5, { domain: "g", source: "memory", createdMs: 0, flagged: false })).toThrow(RangeError);
    expect(t.get(1.5)).toBeUndefined();
  });
});
