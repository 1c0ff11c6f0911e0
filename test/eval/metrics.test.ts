import { describe, expect, it } from "vitest";
import { binaryJudgments, meanOf, ndcgAtK, recallAtK, reciprocalRank } from "../../src/eval/metrics.ts";

describe("retrieval metrics", () => {
  const ranked = ["a", "b", "c", "d"];
  const rel = binaryJudgments(["b", "d", "z"]); // z is relevant but never retrieved

  it("recall@k counts relevant documents found in the first k", () => {
    expect(recallAtK(ranked, rel, 1)).toBe(0);
    expect(recallAtK(ranked, rel, 2)).toBeCloseTo(1 / 3, 12);
    expect(recallAtK(ranked, rel, 10)).toBeCloseTo(2 / 3, 12);
  });

  it("nDCG@k discounts by log2(rank + 1) against the ideal order of all judged documents", () => {
    // DCG = 1/log2(3) + 1/log2(5) = 1.061606; IDCG = 1 + 1/log2(3) + 1/log2(4) = 2.130930.
    expect(ndcgAtK(ranked, rel, 10)).toBeCloseTo(1.0616063 / 2.1309298, 6);
    expect(ndcgAtK(ranked, rel, 1)).toBe(0);
  });

  it("nDCG uses graded relevance as linear gain", () => {
    // DCG = 1 + 2/log2(3) = 2.261860; IDCG = 2 + 1/log2(3) = 2.630930.
    expect(ndcgAtK(["b", "a"], new Map([["a", 2], ["b", 1]]), 10)).toBeCloseTo(2.2618595 / 2.6309298, 6);
  });

  it("reciprocal rank is 1 / rank of the first relevant document, 0 when none is found", () => {
    expect(reciprocalRank(ranked, rel)).toBe(0.5);
    expect(reciprocalRank(ranked, rel, 1)).toBe(0);
    expect(reciprocalRank(["x"], rel)).toBe(0);
  });

  it("a repeated id earns nothing the second time", () => {
    const one = binaryJudgments(["b"]);
    expect(ndcgAtK(["b", "b"], one, 10)).toBe(1);
    expect(recallAtK(["b", "b"], one, 10)).toBe(1);
  });

  it("queries with nothing relevant are undefined and left out of means", () => {
    const none = new Map([["a", 0]]);
    expect(recallAtK(ranked, none, 10)).toBeUndefined();
    expect(ndcgAtK(ranked, none, 10)).toBeUndefined();
    expect(reciprocalRank(ranked, none)).toBeUndefined();
    expect(meanOf([1, undefined, 0.5])).toBe(0.75);
    expect(meanOf([undefined])).toBeNaN();
  });
});
