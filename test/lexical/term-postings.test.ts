import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/eval/scale-corpus.ts";
import { CONTENT, TermPostings, TITLE } from "../../src/lexical/term-postings.ts";

const entries = (p: TermPostings) =>
  Array.from({ length: p.length }, (_, i) => [p.docs[i], p.tfs[2 * i + TITLE], p.tfs[2 * i + CONTENT]]);

describe("TermPostings", () => {
  it("keeps documents sorted whatever the insertion order and sums counts per field", () => {
    const p = new TermPostings();
    for (const d of [5, 1, 9, 3, 7]) p.add(d, CONTENT, d);
    p.add(3, TITLE, 2);
    p.add(3, CONTENT, 1);
    expect(entries(p)).toEqual([[1, 0, 1], [3, 2, 4], [5, 0, 5], [7, 0, 7], [9, 0, 9]]);
    expect(p.find(7)).toBe(3);
    expect(p.find(4)).toBe(-1);
  });

  it("drops an entry only when no field holds the term any more", () => {
    const p = new TermPostings();
    p.add(1, TITLE, 1);
    p.add(1, CONTENT, 2);
    p.add(2, CONTENT, 1);
    p.clearField(1, CONTENT);
    expect(entries(p)).toEqual([[1, 1, 0], [2, 0, 1]]);
    p.clearField(1, TITLE);
    expect(entries(p)).toEqual([[2, 0, 1]]);
    p.clearField(42, TITLE);
    expect(p.length).toBe(1);
  });

  it("saturates term frequency at 65535 instead of wrapping", () => {
    const p = new TermPostings();
    p.add(1, CONTENT, 70000);
    expect(p.tfs[CONTENT]).toBe(65535);
  });

  it("keeps every count exact across growth and the one-byte → two-byte widening (issue 20: lists start narrow)", () => {
    const rnd = seededRandom(20);
    const p = new TermPostings();
    const model = new Map<number, [number, number]>();
    for (let step = 0; step < 3000; step++) {
      const doc = Math.floor(rnd() * 1500);
      const field = rnd() < 0.3 ? TITLE : CONTENT;
      // Mostly small counts; now and then one that no byte holds, so the list widens mid-way.
      const count = step === 1700 ? 300 : 1 + Math.floor(rnd() * 4);
      p.add(doc, field, count);
      const m = model.get(doc) ?? [0, 0];
      m[field] += count;
      model.set(doc, m);
      if (step % 7 === 0) {
        const gone = Math.floor(rnd() * 1500);
        p.clearField(gone, CONTENT);
        const g = model.get(gone);
        if (g) (g[CONTENT] = 0), g[TITLE] === 0 && model.delete(gone);
      }
    }
    const expected = [...model].sort((a, b) => a[0] - b[0]).map(([d, [t, c]]) => [d, t, c]);
    expect(entries(p)).toEqual(expected);
    expect(expected.some(([, t, c]) => t > 255 || c > 255)).toBe(true);
  });

  it("a list whose counts all fit in a byte stays one byte a field", () => {
    const p = new TermPostings();
    for (let d = 0; d < 100; d++) p.add(d, CONTENT, 255);
    expect(p.tfs.BYTES_PER_ELEMENT).toBe(1);
    p.add(100, TITLE, 256);
    expect(p.tfs.BYTES_PER_ELEMENT).toBe(2);
    expect(entries(p).slice(-2)).toEqual([[99, 0, 255], [100, 256, 0]]);
  });
});
