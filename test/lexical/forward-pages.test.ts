import { describe, expect, it } from "vitest";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";
import type { LexicalIndex } from "../../src/lexical/lexical-index.ts";
import { loadLexicalIndex } from "../../src/lexical/load-lexical-index.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";
import { seededRandom } from "../../src/eval/scale-corpus.ts";

// Issue 25: forward lists live in shared byte pages instead of one typed array per field. Whatever the history of
// adds, replacements and removals (on a fresh index or on one loaded from a snapshot, whose page is never
// written), an index must score, match phrases and report document terms exactly as an index built fresh from
// the surviving documents does.

const WORDS = "kiln glaze celadon stoneware porcelain bisque firing reduction oxidation slip wedging throwing trimming cone ash".split(" ");

function docText(rand: () => number, long: boolean): string {
  const n = long ? 400 + Math.floor(rand() * 800) : 3 + Math.floor(rand() * 30);
  return Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)] + (rand() < 0.05 ? "_x" : "")).join(" ");
}

const QUERIES = ["kiln glaze", "celadon reduction firing", "cone ash slip", "wedging_x throwing"];
const LEX = ['"bisque firing"', 'glaze -"cone ash"'];

function sameAnswers(a: LexicalIndex, b: LexicalIndex, ids: number[]): void {
  expect(a.size).toBe(b.size);
  for (const q of QUERIES) {
    const x = a.search(q, 20);
    const y = b.search(q, 20);
    expect(x.map((h) => h.id)).toEqual(y.map((h) => h.id));
    x.forEach((h, i) => expect(Math.abs(h.score - y[i].score)).toBeLessThan(1e-9));
  }
  for (const lex of LEX) expect(a.search("", 20, { lex }).map((h) => h.id)).toEqual(b.search("", 20, { lex }).map((h) => h.id));
  // Term ids differ between two indexes, so a document's terms are compared by count per field.
  const terms = (idx: LexicalIndex, id: number) => {
    const t = idx.docTerms(id);
    return t && [t.title.length, t.content.length];
  };
  for (const id of ids) expect(terms(a, id)).toEqual(terms(b, id));
}

describe.each([
  ["bm25", () => createBm25Index()],
  ["orama", () => createOramaLexicalIndex()],
] as [string, () => LexicalIndex][])("%s forward-list pages", (_kind, make) => {
  it("answer as a fresh build after random adds, replacements and removals, before and after a snapshot load", () => {
    const rand = seededRandom(7);
    const live = new Map<number, { title?: string; content: string }>();
    let idx = make();
    for (let step = 0; step < 2500; step++) {
      const id = 1 + Math.floor(rand() * 600);
      const r = rand();
      if (r < 0.6) {
        const doc = { title: rand() < 0.7 ? docText(rand, false) : undefined, content: docText(rand, rand() < 0.02) };
        idx.add({ id, ...doc });
        live.set(id, doc);
      } else {
        idx.remove(id);
        live.delete(id);
      }
      if (step === 1200) {
        // Continue on an index loaded from a snapshot: its page is adopted, later lists go to new pages.
        const loaded = loadLexicalIndex(JSON.parse(JSON.stringify(idx.toJSON())));
        expect(loaded).not.toBeNull();
        idx = loaded!;
      }
    }
    const fresh = make();
    for (const [id, doc] of [...live].sort((a, b) => a[0] - b[0])) fresh.add({ id, ...doc });
    sameAnswers(idx, fresh, [...live.keys()]);
    // Emptied completely, then refilled: released pages are not read again.
    for (const id of [...live.keys()]) idx.remove(id);
    expect(idx.size).toBe(0);
    expect(idx.search("kiln", 5)).toEqual([]);
    idx.add({ id: 1, title: "kiln", content: "glaze celadon" });
    expect(idx.search("kiln glaze", 5).map((h) => h.id)).toEqual([1]);
    expect(idx.docTerms(1)?.content.length).toBe(2);
  });
});
