import { describe, expect, it } from "vitest";
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
});
