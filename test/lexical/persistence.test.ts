import { describe, expect, it } from "vitest";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";
import type { LexicalIndex } from "../../src/lexical/lexical-index.ts";
import { loadLexicalIndex } from "../../src/lexical/load-lexical-index.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";

const WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon".split(" ");

/** A deterministic little corpus with titles, identifiers and repeated words. */
function fill(idx: LexicalIndex, n: number): void {
  for (let i = 1; i <= n; i++) {
    const words = Array.from({ length: 5 + (i % 13) }, (_, j) => WORDS[(i * 7 + j * j) % WORDS.length]);
    idx.add({ id: i * 3, title: i % 4 === 0 ? undefined : `${WORDS[i % WORDS.length]} note ${i}`, content: `${words.join(" ")} id_${i % 5} getValue${i % 3}` });
  }
}

const QUERIES: [string, { lex?: string; filter?: (id: number) => boolean }][] = [
  ["alpha beta", {}],
  ["gamma note", {}],
  ["sigma tau upsilon", { filter: (id) => id % 2 === 0 }],
  ["", { lex: '"beta gamma" -delta' }],
  ["", { lex: "getValue1 id_2" }],
  ["kappa lambda mu", {}],
];

describe.each([
  ["bm25", () => createBm25Index({ k1: 1.1, b: 0.6, titleWeight: 1.5 })],
  ["orama", () => createOramaLexicalIndex({ k1: 1.1, b: 0.6, titleWeight: 1.5 })],
] as [string, () => LexicalIndex][])("%s persistence", (kind, make) => {
  function built(): LexicalIndex {
    const idx = make();
    fill(idx, 300);
    for (let i = 1; i <= 300; i += 7) idx.remove(i * 3);
    idx.add({ id: 9, content: "replaced alpha alpha" });
    return idx;
  }

  it("a saved and loaded index answers identically, after a JSON round trip", () => {
    const idx = built();
    const saved = JSON.parse(JSON.stringify(idx.toJSON()));
    expect(saved).toMatchObject({ format: "cairn-lexical", kind, version: 2, changeCounter: idx.changeCounter, params: idx.params });
    const back = loadLexicalIndex(saved)!;
    expect(back).not.toBeNull();
    expect(back.kind).toBe(kind);
    expect(back.size).toBe(idx.size);
    expect(back.changeCounter).toBe(idx.changeCounter);
    expect(back.params).toEqual(idx.params);
    for (const [q, opts] of QUERIES) expect(back.search(q, 10, opts)).toEqual(idx.search(q, 10, opts));
  });

  it("a loaded index keeps working: the same changes give the same answers", () => {
    const idx = built();
    const back = loadLexicalIndex(JSON.parse(JSON.stringify(idx.toJSON())))!;
    for (const target of [idx, back]) {
      target.remove(30);
      target.add({ id: 12, title: "gamma", content: "theta theta iota" });
      target.add({ id: 5000, content: "brand new alpha" });
    }
    expect(back.size).toBe(idx.size);
    for (const [q, opts] of QUERIES) expect(back.search(q, 20, opts)).toEqual(idx.search(q, 20, opts));
  });

  it("answers null for an unknown version, a foreign format or mangled data", () => {
    const saved = JSON.parse(JSON.stringify(built().toJSON()));
    expect(loadLexicalIndex({ ...saved, version: 1 })).toBeNull();
    expect(loadLexicalIndex({ ...saved, version: 3 })).toBeNull();
    expect(loadLexicalIndex({ ...saved, format: "other" })).toBeNull();
    expect(loadLexicalIndex(null)).toBeNull();
    expect(loadLexicalIndex({ ...saved, data: { nonsense: true } })).toBeNull();
    expect(loadLexicalIndex({ ...saved, params: { k1: -1, b: 0.5, titleWeight: 1 } })).toBeNull();
  });
});

describe("bm25 persistence details", () => {
  it("stores a compact form: forward lists as base64, vocabulary once", () => {
    const idx = createBm25Index();
    fill(idx, 50);
    const data = idx.toJSON().data as { terms: string[]; tokens: string; ids: number[] };
    expect(new Set(data.terms).size).toBe(data.terms.length);
    expect(data.ids).toHaveLength(50);
    expect(typeof data.tokens).toBe("string");
  });

  it("rejects forward lists that point outside the vocabulary", () => {
    const idx = createBm25Index();
    fill(idx, 5);
    const saved = JSON.parse(JSON.stringify(idx.toJSON()));
    saved.data.terms = saved.data.terms.slice(0, 2);
    expect(loadLexicalIndex(saved)).toBeNull();
  });

  it("compacts slots after heavy churn without changing answers", () => {
    const churned = createBm25Index();
    const fresh = createBm25Index();
    for (let round = 0; round < 6; round++) {
      for (let i = 1; i <= 1500; i++) churned.add({ id: i, content: `${WORDS[(i + round) % 20]} ${WORDS[i % 7]} round${round}` });
    }
    for (let i = 1; i <= 1500; i++) fresh.add({ id: i, content: `${WORDS[(i + 5) % 20]} ${WORDS[i % 7]} round5` });
    expect(churned.size).toBe(1500);
    for (const q of ["alpha", "beta gamma", "round5 delta", "round4"]) expect(churned.search(q, 15)).toEqual(fresh.search(q, 15));
    // Without compaction 9,000 slots would have been used; reclaiming keeps it within 2 × live + 1.
    const slotCount = (churned as unknown as { store: { slotCount: number } }).store.slotCount;
    expect(slotCount).toBeLessThanOrEqual(2 * 1500 + 1);
  });

  it("loads a snapshot saved without document frequencies (older form) identically, and refuses a wrong one", () => {
    const idx = createBm25Index();
    fill(idx, 120);
    const saved = JSON.parse(JSON.stringify(idx.toJSON()));
    expect(typeof saved.data.df).toBe("string");
    const { df: _df, ...older } = saved.data;
    const back = loadLexicalIndex({ ...saved, data: older })!;
    expect(back).not.toBeNull();
    for (const [q, opts] of QUERIES) expect(back.search(q, 10, opts)).toEqual(idx.search(q, 10, opts));
    // One term's frequency off by one: the postings would not fit, so the snapshot is rebuilt instead.
    const bytes = Buffer.from(saved.data.df, "base64");
    bytes.writeUInt32LE(bytes.readUInt32LE(0) + 1, 0);
    expect(loadLexicalIndex({ ...saved, data: { ...saved.data, df: bytes.toString("base64") } })).toBeNull();
    // Forward lists cut short.
    const tokens = Buffer.from(saved.data.tokens, "base64");
    expect(loadLexicalIndex({ ...saved, data: { ...saved.data, tokens: tokens.subarray(0, tokens.length - 3).toString("base64") } })).toBeNull();
  });
});
