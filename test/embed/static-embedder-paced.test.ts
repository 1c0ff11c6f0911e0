/**
 * Embedding under a deadline (SPEC §8): with `pace` the static embedder sums the same token vectors in the same order
 * with slice boundaries between them, so every vector is byte-identical to the unpaced one — long texts with
 * out-of-vocabulary words, identifiers and non-ASCII included.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../../src/embed/static-embedder.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const embedder = createStaticEmbedder(new Uint8Array(readFileSync(resolve(root, DEFAULT_STATIC_ASSET_PATH))));
const hex = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("hex");

describe("static embedder with pace", () => {
  it("gives byte-identical vectors, long and short texts alike, and paces long ones", async () => {
    const words = ["ledger", "kalomiten", "getUserById", "naïve", "über", "IL-6", "rasulve", "payments", "κB", "2026"];
    const long = Array.from({ length: 12_000 }, (_, i) => words[(i * 7) % words.length] + (i % 13 === 0 ? "." : "")).join(" ");
    const texts = [long, "short note about the ledger", long.slice(0, 40_000), "", long.toUpperCase()];
    let boundaries = 0;
    const paced = await embedder.embed(texts, { pace: async () => void boundaries++ });
    const plain = await embedder.embed(texts);
    expect(paced.map(hex)).toEqual(plain.map(hex));
    expect(boundaries).toBeGreaterThan(texts.length);
  });
});
