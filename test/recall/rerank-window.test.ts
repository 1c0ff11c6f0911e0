import { describe, expect, it } from "vitest";
import { DEFAULT_RERANK_WEIGHTS, rerankScore, type RerankQuery } from "../../src/recall/rerank.ts";

// Query terms 1, 2, 3 (idf 1 each); filler term 9. Both documents hold all three query terms.
const q: RerankQuery = { sequence: [1, 2, 3], terms: [{ id: 1, idf: 1 }, { id: 2, idf: 1 }, { id: 3, idf: 1 }], lexMax: 1, vecMax: 1, vecMin: 0 };
const filler = (n: number) => Array(n).fill(9);
const together = { title: new Uint32Array([9]), content: new Uint32Array([...filler(30), 1, 9, 2, 3, ...filler(30)]) };
const scattered = { title: new Uint32Array([9]), content: new Uint32Array([1, ...filler(20), 2, ...filler(20), 3, ...filler(20)]) };
const score = (doc: typeof together, w = DEFAULT_RERANK_WEIGHTS, all = false) => rerankScore(q, doc, { lexical: 1 }, w, 2000, all);

describe("rerank window feature (issue 24)", () => {
  it("is the idf share of query terms inside the best 16-position window", () => {
    const w = { ...DEFAULT_RERANK_WEIGHTS, window: 0.3 };
    expect(score(together, w).features.window).toBe(1);
    // Each pair of the scattered terms is 21 positions apart: one term per window at most.
    expect(score(scattered, w).features.window).toBeCloseTo(1 / 3, 6);
    expect(score(together, w).score).toBeGreaterThan(score(scattered, w).score);
  });

  it("is off by default: not computed, and the served score is the six-feature score", () => {
    expect(DEFAULT_RERANK_WEIGHTS.window).toBe(0);
    expect(DEFAULT_RERANK_WEIGHTS.cluster).toBe(0);
    expect(score(together).features.window).toBe(0);
    expect(score(together, DEFAULT_RERANK_WEIGHTS, true).features.window).toBe(1);
    expect(score(together).score).toBe(score(together, DEFAULT_RERANK_WEIGHTS, true).score);
  });
});
