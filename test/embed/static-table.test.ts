import { describe, expect, it } from "vitest";
import { createStaticEmbedder } from "../../src/embed/static-embedder.ts";
import { decodeStaticTable, encodeStaticTable, type StaticTable } from "../../src/embed/static-table.ts";

/** A 4-d, 3-word table whose vectors are exactly representable, so results can be computed by hand. */
function tinyTable(overrides: Partial<StaticTable> = {}): StaticTable {
  return {
    modelId: "tiny-4d", dim: 4, words: ["cat", "dog", "e-mail"], sifA: 0.5,
    oovWeight: 1, oovNorm: 2, oovBuckets: 16, oovSeed: 7, ngramMin: 3, ngramMax: 5,
    weights: Float32Array.from([0.5, 1, 1]),
    scales: Float32Array.from([0.25, 0.5, 1]),
    component: new Float32Array(4),
    vectors: Int8Array.from([4, 0, 0, 0, /* dog */ 0, 2, 0, 0, /* e-mail */ 0, 0, 1, 1]),
    ...overrides,
  };
}

describe("static table format", () => {
  it("round-trips every field through encode and decode", () => {
    const t = tinyTable({ component: Float32Array.from([0, 0, 0.6, 0.8]) });
    const back = decodeStaticTable(encodeStaticTable(t));
    expect(back).toEqual(t);
  });

  it("rejects foreign, truncated and future-version bytes", () => {
    const good = encodeStaticTable(tinyTable());
    const future = good.slice();
    future[8] = 9;
    for (const bad of [new TextEncoder().encode("NOTATABLE".padEnd(64)), good.subarray(0, good.length - 3), future]) {
      expect(() => decodeStaticTable(bad)).toThrow(expect.objectContaining({ code: "embed_model_invalid" }));
    }
  });
});

describe("static embedder arithmetic", () => {
  it("sums SIF-weighted rows and L2-normalises", async () => {
    const e = createStaticEmbedder(encodeStaticTable(tinyTable()));
    // cat = 0.5 * 0.25 * [4,0,0,0] = [0.5,0,0,0]; dog = 1 * 0.5 * [0,2,0,0] = [0,1,0,0]
    const [cat, catDog, hyphen] = await e.embed(["CAT", "cat dog", "E-mail"]);
    expect([...cat]).toEqual([1, 0, 0, 0]);
    expect(catDog[0]).toBeCloseTo(0.5 / Math.sqrt(1.25), 6);
    expect(catDog[1]).toBeCloseTo(1 / Math.sqrt(1.25), 6);
    expect(hyphen[2]).toBeCloseTo(Math.SQRT1_2, 6);
    expect(e.id).toMatch(/^tiny-4d@[0-9a-f]{8}$/);
  });

  it("projects out the common component before normalising", async () => {
    const u = Float32Array.from([Math.SQRT1_2, Math.SQRT1_2, 0, 0]);
    const e = createStaticEmbedder(encodeStaticTable(tinyTable({ component: u })));
    const [v] = await e.embed(["cat dog unknownword"]);
    expect(v[0] * u[0] + v[1] * u[1]).toBeCloseTo(0, 6);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
  });

  it("weights an unknown word by the table's OOV weight", async () => {
    const none = createStaticEmbedder(encodeStaticTable(tinyTable({ oovWeight: 0 })));
    const some = createStaticEmbedder(encodeStaticTable(tinyTable()));
    const [silent] = await none.embed(["zebra"]);
    const [heard] = await some.embed(["zebra"]);
    expect(silent.every((x) => x === 0)).toBe(true);
    expect(Math.hypot(...heard)).toBeCloseTo(1, 6);
  });

  it("changes its id when any byte of the table changes", () => {
    const a = createStaticEmbedder(encodeStaticTable(tinyTable()));
    const b = createStaticEmbedder(encodeStaticTable(tinyTable({ sifA: 0.25 })));
    expect(a.id).not.toBe(b.id);
    expect(a.tableHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
