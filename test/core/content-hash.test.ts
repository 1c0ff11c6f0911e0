import { describe, expect, it } from "vitest";
import { xxh3Hex } from "../../src/core/content-hash.ts";
import { hasVector, readVector } from "../ump/_vectors.ts";

// SPEC §2.1: exact duplicates are found by XXH3-64 of the content. The published xxHash sanity vectors
// (../shared/data/vectors/xxhash.json) pin the implementation; only seed 0 is used by the store.
interface Vector { len: number; seed: string; hash: string }

/** The xxHash sanity buffer: byteGen = PRIME32; buf[i] = byteGen >> 56; byteGen *= PRIME64 (mod 2^64). */
function sanityBuffer(len: number, prime32: bigint, prime64: bigint): Uint8Array {
  const out = new Uint8Array(len);
  let gen = prime32;
  for (let i = 0; i < len; i++) {
    out[i] = Number(gen >> 56n);
    gen = (gen * prime64) & 0xffffffffffffffffn;
  }
  return out;
}

describe.runIf(hasVector("xxhash.json"))("XXH3-64 content hash against the xxHash sanity vectors", () => {
  it("matches every seed-0 XXH3-64 vector", async () => {
    const file = JSON.parse(readVector("xxhash.json"));
    const vectors = (file.xxh3_64 as Vector[]).filter((v) => v.seed === "0");
    expect(vectors.length).toBeGreaterThan(5);
    const max = Math.max(...vectors.map((v) => v.len));
    const buf = sanityBuffer(max, BigInt(file.PRIME32), BigInt(file.PRIME64));
    for (const v of vectors) expect(await xxh3Hex(buf.subarray(0, v.len)), `len ${v.len}`).toBe(v.hash);
  });
});
