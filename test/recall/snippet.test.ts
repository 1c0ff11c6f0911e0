import { existsSync, readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyze, normalizeWord } from "../../src/lexical/mod.ts";
import { bestWindow, highlights } from "../../src/recall/snippet.ts";

// The definition the served windows follow: every word of the text, stemmed, tested against the query terms.
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'_-]*/gu;
const reference = (text: string, q: ReadonlySet<string>) =>
  [...text.matchAll(WORD)].filter((m) => q.has(normalizeWord(m[0].toLowerCase()))).map((m) => [m.index!, m.index! + m[0].length]);

const corpus = "../shared/data/scifact/corpus.jsonl";
const texts = existsSync(corpus)
  ? readFileSync(corpus, "utf8").split("\n").slice(0, 400).filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text)
  : [];
const queriesFile = "../shared/data/scifact/queries.jsonl";
const queries = existsSync(queriesFile)
  ? readFileSync(queriesFile, "utf8").split("\n").slice(0, 400).filter(Boolean).map((l) => (JSON.parse(l) as { text: string }).text)
  : [];

describe("served windows and highlights (issue 25: words skipped by first character)", () => {
  it("mark exactly the words whose term is a query term, on generated text with case, apostrophes, digits and non-ASCII", () => {
    const word = fc.constantFrom("Running", "runs", "it's", "IL-6", "Über", "naïve", "Young", "yields", "the", "A", "ß", "Ωmega", "p53", "x", "e", "Élan", "İstanbul", "studies", "STUDY", "ys");
    fc.assert(fc.property(fc.array(word, { minLength: 1, maxLength: 60 }), fc.array(word, { minLength: 1, maxLength: 6 }), (words, qwords) => {
      const text = words.join(" ");
      const q = new Set(analyze(qwords.join(" ")).sequence);
      expect(highlights(text, q)).toEqual(reference(text, q));
    }));
  });

  it("mark the same words as the definition on SciFact texts and queries, and place windows on them", () => {
    if (texts.length === 0) return;
    let marked = 0;
    texts.forEach((text, i) => {
      const q = new Set(analyze(queries[i % queries.length]).sequence);
      const want = reference(text, q);
      marked += want.length;
      expect(highlights(text, q)).toEqual(want);
      // A window is placed where the query terms are densest, so one with marks holds at least one.
      const w = bestWindow(text, q, 300);
      if (want.length > 0 && text.length > 300) expect(reference(w.text, q).length).toBeGreaterThan(0);
      // The second window over the same text (a hit's snippet) answers as a fresh computation would.
      expect(bestWindow(text, q, 120)).toEqual(bestWindow(text + "", new Set(q), 120));
    });
    expect(marked).toBeGreaterThan(100);
  });
});
