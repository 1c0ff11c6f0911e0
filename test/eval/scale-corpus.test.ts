import { describe, expect, it } from "vitest";
import { scaleCorpus } from "../../src/eval/scale-corpus.ts";

const SOURCES = [
  { title: "One", text: "First sentence here. Second sentence there! Third one?" },
  { title: "Two", text: "Another document with words. And more words." },
];

describe("scaleCorpus", () => {
  it("keeps the originals first and numbers documents from 1", () => {
    const docs = scaleCorpus(SOURCES, 5);
    expect(docs.map((d) => d.id)).toEqual([1, 2, 3, 4, 5]);
    expect(docs[0]).toEqual({ id: 1, title: "One", content: SOURCES[0].text });
    expect(docs[1]).toEqual({ id: 2, title: "Two", content: SOURCES[1].text });
  });

  it("is deterministic for a seed and differs across seeds", () => {
    expect(scaleCorpus(SOURCES, 50, 1)).toEqual(scaleCorpus(SOURCES, 50, 1));
    expect(scaleCorpus(SOURCES, 50, 1)).not.toEqual(scaleCorpus(SOURCES, 50, 2));
  });

  it("perturbs copies into distinct documents of the same length in words", () => {
    const long = [0, 1].map((s) => ({
      title: `Doc ${s}`,
      text: Array.from({ length: 12 }, (_, i) => `Sentence ${i} of doc ${s} says word${i} and term${i * s}.`).join(" "),
    }));
    const docs = scaleCorpus(long, 40);
    const words = (t: string) => t.split(/\s+/).length;
    for (const d of docs.slice(2)) {
      const source = long[(d.id - 1) % 2].text;
      expect(words(d.content)).toBe(words(source));
      expect(d.content).not.toBe(source);
    }
    expect(new Set(docs.map((d) => d.content)).size).toBe(40);
  });
});
