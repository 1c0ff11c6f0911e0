import { describe, expect, it } from "vitest";
import { MatrixIndex } from "../../src/vector/matrix-index.ts";

/** Seeded xorshift32 so the randomised comparison is reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

function unit(values: number[]): Float32Array {
  const n = Math.hypot(...values);
  return Float32Array.from(values, (x) => x / n);
}

const dotF32 = (a: Float32Array, b: Float32Array): number => a.reduce((s, x, i) => s + x * b[i], 0);

describe("MatrixIndex", () => {
  it("returns the k nearest by dot product, best first", () => {
    const idx = new MatrixIndex(2);
    idx.add(1, unit([1, 0]));
    idx.add(2, unit([0, 1]));
    idx.add(3, unit([1, 1]));
    const hits = idx.search(unit([1, 0.2]), 2);
    expect(hits.map((h) => h.id)).toEqual([1, 3]);
    expect(hits[0].score).toBeCloseTo(1 / Math.hypot(1, 0.2), 6);
    expect(idx.size).toBe(3);
  });

  it("breaks score ties by id ascending whatever the insertion order", () => {
    for (const order of [[5, 2, 9, 7], [9, 7, 5, 2], [2, 5, 7, 9]]) {
      const idx = new MatrixIndex(3, 1);
      for (const id of order) idx.add(id, unit([1, 2, 3]));
      expect(idx.search(unit([1, 2, 3]), 3).map((h) => h.id)).toEqual([2, 5, 7]);
    }
  });

  it("removes by swapping the last row into the hole, keeping every other vector intact", () => {
    const idx = new MatrixIndex(2, 1);
    idx.add(10, unit([1, 0]));
    idx.add(20, unit([0, 1]));
    idx.add(30, unit([-1, 0]));
    expect(idx.remove(10)).toBe(true);
    expect(idx.remove(10)).toBe(false);
    expect(idx.has(10)).toBe(false);
    expect(idx.size).toBe(2);
    expect([...idx.get(30)!]).toEqual([-1, 0]);
    expect(idx.search(unit([-1, 0]), 5).map((h) => h.id)).toEqual([30, 20]);
    idx.add(40, unit([1, 0]));
    expect(idx.search(unit([1, 0]), 1)).toEqual([{ id: 40, score: 1 }]);
  });

  it("replaces the vector when an id is added again", () => {
    const idx = new MatrixIndex(2);
    idx.add(1, unit([1, 0]));
    idx.add(1, unit([0, 1]));
    expect(idx.size).toBe(1);
    expect(idx.search(unit([0, 1]), 1)).toEqual([{ id: 1, score: 1 }]);
  });

  it("applies the filter before ranking", () => {
    const idx = new MatrixIndex(2);
    for (let id = 1; id <= 6; id++) idx.add(id, unit([1, id / 10]));
    const hits = idx.search(unit([1, 0]), 2, (id) => id % 2 === 0);
    expect(hits.map((h) => h.id)).toEqual([2, 4]);
  });

  it("handles k of zero, k above size and an empty index", () => {
    const idx = new MatrixIndex(2);
    expect(idx.search(unit([1, 0]), 3)).toEqual([]);
    idx.add(1, unit([1, 0]));
    expect(idx.search(unit([1, 0]), 0)).toEqual([]);
    expect(idx.search(unit([1, 0]), 50)).toHaveLength(1);
  });

  it("refuses vectors of the wrong dimension and non-integer ids", () => {
    const idx = new MatrixIndex(3);
    expect(() => idx.add(1, [1, 2])).toThrow(expect.objectContaining({ code: "internal_error" }));
    expect(() => idx.search([1, 2], 1)).toThrow(expect.objectContaining({ code: "internal_error" }));
    expect(() => idx.add(1.5, [1, 2, 3])).toThrow(expect.objectContaining({ code: "internal_error" }));
  });

  it("agrees with a brute-force sort after many random adds and removes", () => {
    const rand = rng(42);
    const dim = 16;
    const idx = new MatrixIndex(dim, 4);
    const truth = new Map<number, Float32Array>();
    for (let step = 0; step < 3000; step++) {
      const id = Math.floor(rand() * 800);
      if (rand() < 0.3) {
        expect(idx.remove(id)).toBe(truth.delete(id));
      } else {
        // Coarse values make exact score ties common, exercising the tie-break.
        const v = Float32Array.from({ length: dim }, () => Math.floor(rand() * 3) - 1);
        idx.add(id, v);
        truth.set(id, v);
      }
    }
    expect(idx.size).toBe(truth.size);
    for (let q = 0; q < 20; q++) {
      const query = Float32Array.from({ length: dim }, () => Math.floor(rand() * 3) - 1);
      const expected = [...truth.entries()]
        .map(([id, v]) => ({ id, score: dotF32(query, v) }))
        .sort((a, b) => b.score - a.score || a.id - b.id)
        .slice(0, 25);
      expect(idx.search(query, 25)).toEqual(expected);
    }
  });
});
