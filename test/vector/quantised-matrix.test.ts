import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exactVectorReader } from "../../src/store/chunk-reader.ts";
import { openStore } from "../../src/store/open-store.ts";
import { ensureVectorTable, putVectors } from "../../src/store/vectors.ts";
import { MatrixIndex } from "../../src/vector/matrix-index.ts";
import { tempDir } from "../_helpers/memory.ts";

// Issue 25: the matrix holds int8 rows over the store's exact vectors; every score it returns must be the one the
// float32 matrix returns, so recall's rankings and confidences do not move.
const DIM = 24;
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
function unit(r: () => number, centre?: Float32Array, spread = 1): Float32Array {
  const v = new Float32Array(DIM);
  let n = 0;
  for (let d = 0; d < DIM; d++) {
    v[d] = (centre ? centre[d] : 0) + spread * (r() * 2 - 1);
    n += v[d] * v[d];
  }
  for (let d = 0; d < DIM; d++) v[d] /= Math.sqrt(n);
  return v;
}

async function pair(vectors: Float32Array[]) {
  const db = await openStore({ path: join(tempDir(), "v.db") });
  await ensureVectorTable(db.client, "test-model", DIM);
  await putVectors(db.client, vectors.map((vec, i) => ({ chunkId: i + 1, vec })));
  const exact = exactVectorReader(db);
  expect(exact).toBeDefined();
  const plain = new MatrixIndex(DIM, 16);
  const quantised = new MatrixIndex(DIM, 16, exact);
  vectors.forEach((v, i) => {
    plain.add(i + 1, v);
    quantised.add(i + 1, v);
  });
  return { db, plain, quantised };
}

describe("int8 matrix over the stored vectors (issue 25)", () => {
  it("holds a byte per component and returns the float32 matrix's hits and scores exactly", async () => {
    const r = rng(7);
    const vectors = Array.from({ length: 3000 }, () => unit(r));
    const { db, plain, quantised } = await pair(vectors);
    expect(quantised.bytesPerComponent).toBe(1);
    expect(plain.bytesPerComponent).toBe(4);
    for (let i = 0; i < 40; i++) {
      const q = unit(r);
      for (const k of [1, 10, 100]) expect(quantised.search(q, k)).toEqual(plain.search(q, k));
      const filter = (id: number) => id % 3 !== 0;
      expect(quantised.search(q, 25, filter)).toEqual(plain.search(q, 25, filter));
      const ids = [5, 2999, 17, 40000, 1, 5];
      expect(quantised.scoreIds(q, ids)).toEqual(plain.scoreIds(q, ids));
    }
    // Removal and replacement keep both in step (the store is the exact source, so it changes too).
    plain.remove(17);
    quantised.remove(17);
    const q = unit(r);
    expect(quantised.search(q, 3000)).toEqual(plain.search(q, 3000));
    expect(quantised.size).toBe(2999);
    await db.close();
  });

  it("stays exact when thousands of rows score within the int8 error of each other (the head is widened)", async () => {
    const r = rng(11);
    const centre = unit(r);
    // Near-duplicates: the int8 order among them is noise, so the first head cannot prove the top k.
    const vectors = Array.from({ length: 2000 }, () => unit(r, centre, 0.002));
    const { db, plain, quantised } = await pair(vectors);
    for (let i = 0; i < 10; i++) {
      const q = unit(r, centre, 0.01);
      expect(quantised.search(q, 50)).toEqual(plain.search(q, 50));
    }
    await db.close();
  });

  it("returns a dequantised copy from get() once the store no longer has the vector", async () => {
    const r = rng(3);
    const vectors = Array.from({ length: 10 }, () => unit(r));
    const { db, quantised } = await pair(vectors);
    expect(quantised.get(4)).toEqual(vectors[3]);
    await db.client.execute("DELETE FROM chunk_vectors WHERE chunk_id = 4");
    const approx = quantised.get(4)!;
    for (let d = 0; d < DIM; d++) expect(Math.abs(approx[d] - vectors[3][d])).toBeLessThan(0.01);
    // A search never returns a row whose exact vector is gone.
    expect(quantised.search(vectors[3], 10).map((h) => h.id)).not.toContain(4);
    await db.close();
  });
});
