import { describe, expect, it } from "vitest";
import { createBm25Index } from "../../src/lexical/mod.ts";
import { RecallIndex } from "../../src/recall/recall-index.ts";

const DIM = 16;
const vec = (seed: number) => Float32Array.from({ length: DIM }, (_, d) => Math.sin(seed * 12.9898 + d * 78.233) * (1 + (seed % 5)));
const label = (id: number) => ({ domain: ["global", "kilns", "glazes"][id % 3], source: "memory" as const, createdMs: 1_700_000_000_000 + id, flagged: false });

describe("boot's vector pages (issue 25)", () => {
  it("give the same vectors, scores and domain centroids as adding each vector on its own", () => {
    const ids = Array.from({ length: 300 }, (_, i) => 1 + i * 2);
    const data = new Float32Array(ids.length * DIM);
    ids.forEach((id, i) => data.set(vec(id), i * DIM));
    const one = new RecallIndex(DIM, createBm25Index());
    const paged = new RecallIndex(DIM, createBm25Index());
    // Chunk 7 has no labels (skipped by both), chunk 9 already has a vector (kept as it was by both).
    for (const index of [one, paged]) {
      for (const id of ids) if (id !== 7) index.labels.set(id, label(id));
      index.addVector(9, "kilns", vec(1000));
    }
    for (let i = 0; i < ids.length; i++) {
      const l = one.labels.get(ids[i]);
      if (l) one.addVector(ids[i], l.domain, data.subarray(i * DIM, (i + 1) * DIM));
    }
    paged.addVectorPage(ids.slice(0, 120), data.subarray(0, 120 * DIM));
    paged.addVectorPage(ids.slice(120), data.subarray(120 * DIM));
    expect(paged.vectors!.size).toBe(one.vectors!.size);
    expect(paged.vectors!.has(7)).toBe(false);
    expect([...paged.centroids()]).toEqual([...one.centroids()]);
    expect(paged.centroids().size).toBe(3);
    const q = vec(4242);
    expect(paged.vectors!.search(q, 20)).toEqual(one.vectors!.search(q, 20));
    expect(paged.vectors!.get(9)).toEqual(one.vectors!.get(9));
  });
});
