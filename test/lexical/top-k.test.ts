import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/eval/scale-corpus.ts";
import { TopK } from "../../src/lexical/top-k.ts";

describe("TopK", () => {
  it("keeps the same k entries, in the same order, as a full sort (score desc, id asc)", () => {
    const rand = seededRandom(7);
    for (const k of [1, 3, 10, 50]) {
      const entries = Array.from({ length: 400 }, (_, i) => ({ score: Math.floor(rand() * 20) / 4, id: 1000 - i, docNo: i }));
      const heap = new TopK(k);
      for (const e of entries) heap.offer(e.score, e.id, e.docNo);
      const expected = [...entries].sort((a, b) => (b.score - a.score) || (a.id - b.id)).slice(0, k);
      expect(heap.drain()).toEqual(expected);
    }
  });

  it("wouldAccept tells whether an entry would enter a full heap", () => {
    const heap = new TopK(2);
    heap.offer(5, 10, 0);
    heap.offer(3, 20, 1);
    expect(heap.wouldAccept(3, 19)).toBe(true);
    expect(heap.wouldAccept(3, 21)).toBe(false);
    expect(heap.wouldAccept(2, 1)).toBe(false);
    expect(new TopK(0).wouldAccept(100, 1)).toBe(false);
  });
});
