import { describe, expect, it } from "vitest";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";
import type { Bm25Params } from "../../src/lexical/bm25-scorer.ts";
import type { LexicalIndex } from "../../src/lexical/lexical-index.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";

const IMPLS: [string, (p?: Partial<Bm25Params>) => LexicalIndex][] = [
  ["bm25", createBm25Index],
  ["orama", createOramaLexicalIndex],
];

/** BM25 of one term in one document, written out independently of the implementation. */
function bm25(tf: number, df: number, n: number, dl: number, avgdl: number, k1: number, b: number): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * dl) / avgdl));
}

describe.each(IMPLS)("%s lexical index", (_name, make) => {
  const P = { k1: 1.2, b: 0.75, titleWeight: 1 };

  function fruit(): LexicalIndex {
    const idx = make(P);
    idx.add({ id: 1, content: "apple banana apple" }); // terms: appl banana appl (dl 3)
    idx.add({ id: 2, content: "banana cherry" }); // dl 2
    idx.add({ id: 3, content: "cherry date elderberry fig" }); // dl 4
    return idx;
  }

  it("scores classic BM25 with true term and document frequencies", () => {
    const hits = fruit().search("apple", 10);
    // N = 3, df(appl) = 1, tf = 2 (duplicates count), dl = 3, avgdl = 9 / 3.
    expect(hits).toHaveLength(1);
    expect(hits[0].id).toBe(1);
    expect(hits[0].score).toBeCloseTo(bm25(2, 1, 3, 3, 3, 1.2, 0.75), 12);
  });

  it("sums term scores and ranks by them", () => {
    const hits = fruit().search("banana cherry", 10);
    const s1 = bm25(1, 2, 3, 3, 3, 1.2, 0.75);
    const s2 = bm25(1, 2, 3, 2, 3, 1.2, 0.75) * 2;
    const s3 = bm25(1, 2, 3, 4, 3, 1.2, 0.75);
    expect(hits.map((h) => h.id)).toEqual([2, 1, 3]);
    expect(hits.map((h) => h.score)).toEqual([s2, s1, s3].map((s) => expect.closeTo(s, 12)));
  });

  it("matches whole terms only, never prefixes", () => {
    expect(fruit().search("app", 10)).toEqual([]);
    expect(fruit().search("elder", 10)).toEqual([]);
  });

  it("applies k1 and b at query time", () => {
    const idx = fruit();
    idx.params = { k1: 2, b: 0, titleWeight: 1 };
    expect(idx.search("apple", 1)[0].score).toBeCloseTo(bm25(2, 1, 3, 3, 3, 2, 0), 12);
  });

  it("breaks score ties by id ascending and cuts at k", () => {
    const idx = make(P);
    for (const id of [50, 7, 30, 12]) idx.add({ id, content: "same words here" });
    expect(idx.search("words", 10).map((h) => h.id)).toEqual([7, 12, 30, 50]);
    expect(idx.search("words", 2).map((h) => h.id)).toEqual([7, 12]);
    expect(idx.search("words", 0)).toEqual([]);
  });

  it("weights titles per BM25F: tf and length both scaled by the title weight", () => {
    const idx = make({ k1: 1.2, b: 0.75, titleWeight: 2 });
    idx.add({ id: 1, title: "zebra", content: "stripes" });
    idx.add({ id: 2, content: "zebra stripes grass" });
    // Title weight 2: doc 1 has tf 2, dl 2*1 + 1 = 3; doc 2 tf 1, dl 3; avgdl (2*1 + 4) / 2 = 3.
    const hits = idx.search("zebra", 10);
    expect(hits.map((h) => h.id)).toEqual([1, 2]);
    expect(hits[0].score).toBeCloseTo(bm25(2, 2, 2, 3, 3, 1.2, 0.75), 12);
    expect(hits[1].score).toBeCloseTo(bm25(1, 2, 2, 3, 3, 1.2, 0.75), 12);
    idx.params = { k1: 1.2, b: 0.75, titleWeight: 0 };
    expect(idx.search("zebra", 10).map((h) => h.id)).toEqual([2]);
  });

  it("filters by id, consulting the filter only for candidates", () => {
    const seen: number[] = [];
    const hits = fruit().search("banana cherry", 10, { filter: (id) => (seen.push(id), id !== 2) });
    expect(hits.map((h) => h.id)).toEqual([1, 3]);
    expect(seen.sort()).toEqual([1, 2, 3]);
  });

  it("reports the query terms each hit contains", () => {
    const hits = fruit().search("apple cherry", 10);
    expect(Object.fromEntries(hits.map((h) => [h.id, h.terms]))).toEqual({ 1: ["appl"], 2: ["cherri"], 3: ["cherri"] });
  });

  it("add replaces a document and remove forgets it, statistics included", () => {
    const idx = fruit();
    idx.add({ id: 3, content: "apple" });
    expect(idx.size).toBe(3);
    // Now df(appl) = 2, doc 3 has dl 1, avgdl = (3 + 2 + 1) / 3 = 2.
    expect(idx.search("apple", 10).map((h) => [h.id, h.score])).toEqual([
      [3, expect.closeTo(bm25(1, 2, 3, 1, 2, 1.2, 0.75), 12)],
      [1, expect.closeTo(bm25(2, 2, 3, 3, 2, 1.2, 0.75), 12)],
    ]);
    expect(idx.search("elderberry", 10)).toEqual([]);
    idx.remove(1);
    idx.remove(999);
    expect(idx.has(1)).toBe(false);
    expect(idx.size).toBe(2);
    expect(idx.search("apple", 10).map((h) => h.id)).toEqual([3]);
    expect(idx.search("apple", 10)[0].score).toBeCloseTo(bm25(1, 1, 2, 1, 1.5, 1.2, 0.75), 12);
  });

  it("counts effective changes in changeCounter", () => {
    const idx = fruit();
    expect(idx.changeCounter).toBe(3);
    idx.remove(42);
    expect(idx.changeCounter).toBe(3);
    idx.remove(1);
    idx.changeCounter = 100;
    idx.add({ id: 9, content: "x" });
    expect(idx.changeCounter).toBe(101);
  });

  it("answers an empty or all-stopword query with no hits", () => {
    expect(fruit().search("", 5)).toEqual([]);
    expect(fruit().search("the of and", 5)).toEqual([]);
  });

  it("treats quotes and dashes in a plain query as text, not syntax", () => {
    const idx = fruit();
    const hits = idx.search('"cherry banana" -apple', 10);
    expect(hits.map((h) => h.id)).toEqual([1, 2, 3]); // apple is scored, not excluded; the phrase is not required
    expect(hits).toEqual(idx.search("cherry banana apple", 10));
  });

  describe("lex override (SPEC §4.1)", () => {
    function notes(): LexicalIndex {
      const idx = make(P);
      idx.add({ id: 1, title: "White matter", content: "diffusion imaging of the brain" });
      idx.add({ id: 2, content: "matter is white in colour; brain tissue" });
      idx.add({ id: 3, content: "the white matter of the infant brain" });
      idx.add({ id: 4, content: "getUserName returns the user name" });
      return idx;
    }

    it("replaces the query", () => {
      expect(notes().search("diffusion", 10, { lex: "colour" }).map((h) => h.id)).toEqual([2]);
    });

    it("requires a quoted phrase adjacent and in order within one field, ignoring stopword gaps", () => {
      expect(notes().search("", 10, { lex: '"white matter"' }).map((h) => h.id).sort()).toEqual([1, 3]);
      expect(notes().search("", 10, { lex: '"white matter of brain"' }).map((h) => h.id)).toEqual([]);
      expect(notes().search("", 10, { lex: '"matter of the infant"' }).map((h) => h.id)).toEqual([3]);
      expect(notes().search("", 10, { lex: '"matter diffusion"' })).toEqual([]); // title and content do not join
    });

    it("scores the other words among the phrase matches", () => {
      const hits = notes().search("", 10, { lex: '"white matter" infant' });
      expect(hits.map((h) => h.id)).toEqual([3, 1]);
    });

    it("excludes -terms and -\"phrases\"", () => {
      expect(notes().search("", 10, { lex: "brain -infant" }).map((h) => h.id).sort()).toEqual([1, 2]);
      expect(notes().search("", 10, { lex: 'brain -"white matter"' }).map((h) => h.id)).toEqual([2]);
    });

    it("matches identifier parts as a phrase", () => {
      expect(notes().search("", 10, { lex: '"user name"' }).map((h) => h.id)).toEqual([4]);
      expect(notes().search("", 10, { lex: "getUserName" }).map((h) => h.id)).toEqual([4]);
    });

    it("finds nothing when there is nothing to score", () => {
      expect(notes().search("", 10, { lex: "-brain" })).toEqual([]);
    });
  });
});
