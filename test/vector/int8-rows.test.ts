/**
 * Issue 20: a server node may keep int8 rows without an exact source (`CAIRN_NODE_VECTOR_ROWS=int8`). Its scores are
 * the dequantised dot products: within the quantisation bound of the float32 ones, ranked exactly by those scores,
 * the same whatever the insertion order, and carried through a node's boot cache bit for bit.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/eval/scale-corpus.ts";
import { decodeSnapshotFile, encodeSnapshotFile } from "../../src/lexical/snapshot-file.ts";
import { encodeNodeSection, readNodeSection } from "../../src/recall/node-cache.ts";
import { RecallIndex } from "../../src/recall/recall-index.ts";
import { MatrixIndex } from "../../src/vector/matrix-index.ts";

const DIM = 32;
function unit(r: () => number): Float32Array {
  const v = new Float32Array(DIM);
  let n = 0;
  for (let d = 0; d < DIM; d++) (v[d] = r() * 2 - 1), (n += v[d] * v[d]);
  for (let d = 0; d < DIM; d++) v[d] /= Math.sqrt(n);
  return v;
}
const dot = (a: ArrayLike<number>, b: ArrayLike<number>) => {
  let s = 0;
  for (let d = 0; d < DIM; d++) s += a[d] * b[d];
  return s;
};

describe("int8 rows without an exact source", () => {
  const r = seededRandom(2020);
  const vectors = Array.from({ length: 3000 }, () => unit(r));
  const queries = Array.from({ length: 40 }, () => unit(r));

  it("holds a byte a component and scores within the quantisation bound of float32", () => {
    const m = MatrixIndex.int8(DIM, 16);
    vectors.forEach((v, i) => m.add(i + 1, v));
    expect(m.bytesPerComponent).toBe(1);
    expect(m.approximate).toBe(true);
    expect(new MatrixIndex(DIM).approximate).toBe(false);
    for (const q of queries) {
      let l1 = 0;
      for (let d = 0; d < DIM; d++) l1 += Math.abs(q[d]);
      const hits = m.search(q, 20);
      expect(hits).toHaveLength(20);
      for (const h of hits) {
        const v = vectors[h.id - 1];
        const scale = Math.max(...v.map(Math.abs)) / 127;
        expect(Math.abs(h.score - dot(q, v))).toBeLessThanOrEqual((l1 * scale) / 2 + 1e-6);
      }
      // Ranked exactly by the scores it returns: the brute-force top 20 of the dequantised dot products.
      const all = vectors.map((_, i) => ({ id: i + 1, score: dot(q, m.get(i + 1)!) }))
        .sort((a, b) => b.score - a.score || a.id - b.id).slice(0, 20);
      expect(hits.map((h) => h.id)).toEqual(all.map((h) => h.id));
      // scoreIds agrees with search on the same rows.
      const scored = new Map(m.scoreIds(q, hits.map((h) => h.id)).map((h) => [h.id, h.score]));
      for (const h of hits) expect(scored.get(h.id)).toBeCloseTo(h.score, 9);
      // And the float32 matrix's best hit is never far down: its own row is within the bound too.
      const best = vectors.map((v, i) => ({ id: i + 1, s: dot(q, v) })).sort((a, b) => b.s - a.s)[0];
      expect(hits.slice(0, 5).map((h) => h.id)).toContain(best.id);
    }
  });

  it("answers the same whatever the order of adds and removals", () => {
    const a = MatrixIndex.int8(DIM, 8);
    const b = MatrixIndex.int8(DIM, 8);
    vectors.forEach((v, i) => a.add(i + 1, v));
    [...vectors.keys()].reverse().forEach((i) => b.add(i + 1, vectors[i]));
    for (let id = 1; id <= 3000; id += 7) (a.remove(id), b.remove(id));
    expect(a.size).toBe(b.size);
    for (const q of queries.slice(0, 10)) {
      const ha = a.search(q, 15);
      expect(ha).toEqual(b.search(q, 15));
      expect(ha.some((h) => (h.id - 1) % 7 === 0)).toBe(false);
    }
  });

  it("goes through a node's boot cache bit for bit, and a float32 node's reader sees int8 rows for what they are", () => {
    const m = MatrixIndex.int8(DIM, 16);
    vectors.forEach((v, i) => m.add(i + 1, v));
    m.remove(5);
    const key = { storeId: "s", cursor: 3, cursorChunk: 3, cursorAtMs: 1, embedder: { id: "e", dim: DIM } };
    const read = readNodeSection(decodeSnapshotFile(encodeSnapshotFile({ format: "cairn-lexical", node: encodeNodeSection(key, m, true) })), key.embedder);
    expect(read.ok).toBe(true);
    if (!read.ok || !read.vectors || !("int8" in read.vectors)) throw new Error("int8 rows expected");
    const index = new RecallIndex(DIM, undefined, 16, undefined, true);
    for (const id of read.vectors.ids) index.labels.set(id, { domain: "global", source: "memory", createdMs: 0, flagged: false });
    index.addQuantisedPage(Array.from(read.vectors.ids), read.vectors.int8, read.vectors.scales);
    expect(index.vectors!.size).toBe(2999);
    expect(index.vectors!.has(5)).toBe(false);
    for (const q of queries.slice(0, 10)) expect(index.vectors!.search(q, 10)).toEqual(m.search(q, 10));
    // The same index built by adding the float vectors has the same domain centroid (sums of dequantised rows).
    const direct = new RecallIndex(DIM, undefined, 16, undefined, true);
    vectors.forEach((v, i) => {
      if (i + 1 === 5) return;
      direct.labels.set(i + 1, { domain: "global", source: "memory", createdMs: 0, flagged: false });
      direct.addVector(i + 1, "global", v);
    });
    const [c1, c2] = [index.centroids().get("global")!, direct.centroids().get("global")!];
    for (let d = 0; d < DIM; d++) expect(c1[d]).toBeCloseTo(c2[d], 6);
  });

  it("keeps the domain centroid free of drift when rows come and go", () => {
    const index = new RecallIndex(DIM, undefined, 16, undefined, true);
    const keep = new RecallIndex(DIM, undefined, 16, undefined, true);
    vectors.slice(0, 500).forEach((v, i) => {
      index.labels.set(i + 1, { domain: "d", source: "memory", createdMs: 0, flagged: false });
      index.addVector(i + 1, "d", v);
      if (i % 2 === 0) {
        keep.labels.set(i + 1, { domain: "d", source: "memory", createdMs: 0, flagged: false });
        keep.addVector(i + 1, "d", v);
      }
    });
    for (let i = 1; i < 500; i += 2) index.removed(i + 1);
    const [a, b] = [index.centroids().get("d")!, keep.centroids().get("d")!];
    for (let d = 0; d < DIM; d++) expect(a[d]).toBeCloseTo(b[d], 9);
  });
});
