import { describe, expect, it } from "vitest";
import { analyze, createAnalyzer, foldText, tokenize } from "../../src/lexical/analyzer.ts";

describe("analyzer", () => {
  it("lowercases, drops stopwords and stems", () => {
    expect(analyze("The Cats are RUNNING through the gardens").sequence).toEqual(["cat", "run", "garden"]);
  });

  it("splits camelCase, snake_case and kebab-case identifiers and keeps the whole token", () => {
    const a = analyze("getUserName user_name IL-6");
    expect(a.sequence).toEqual(["get", "user", "name", "user", "name", "il", "6"]);
    expect(a.extras).toEqual(["getusernam", "user_name", "il6"]);
  });

  it("splits acronym runs before a capitalised word and drops single-letter fragments", () => {
    expect(analyze("HTTPServer").sequence).toEqual(["http", "server"]);
    expect(analyze("mRNA T-cells")).toEqual({ sequence: ["rna", "cell"], extras: ["mrna", "t-cell"] });
  });

  it("keeps letter-digit tokens such as gene names whole", () => {
    expect(analyze("p53 and H1N1").sequence).toEqual(["p53", "h1n1"]);
  });

  it("strips possessives, treats contractions as stopwords and does not confuse them with words", () => {
    expect(analyze("Caroline's dog").sequence).toEqual(["carolin", "dog"]);
    expect(analyze("she'll don't").sequence).toEqual([]);
    expect(analyze("a shell").sequence).toEqual(["shell"]);
    expect(analyze("Caroline’s").sequence).toEqual(["carolin"]);
  });

  it("folds Latin diacritics and compatibility forms but leaves other scripts intact", () => {
    expect(analyze("naïve café").sequence).toEqual(["naiv", "cafe"]);
    expect(analyze("ＡＢＣ").sequence).toEqual(["abc"]);
    expect(foldText("नमस्ते")).toBe("नमस्ते");
    expect(analyze("Привет мир").sequence).toEqual(["привет", "мир"]);
  });

  it("splits on punctuation that is not an identifier connector", () => {
    expect(analyze("D1:3, (alpha)/beta").sequence).toEqual(["d1", "3", "alpha", "beta"]);
  });

  it("tokenize returns all terms with duplicates kept", () => {
    expect(tokenize("apple apple pie-crust")).toEqual(["appl", "appl", "pie", "crust", "pie-crust"]);
  });

  it("a cached analyzer gives exactly the uncached output", () => {
    const a = createAnalyzer();
    const text = "State-of-the-art getUserName results; Caroline's T-cells!";
    expect(a.analyze(text)).toEqual(analyze(text));
    expect(a.analyze(text)).toEqual(analyze(text));
    expect(a.tokenize(text)).toEqual(tokenize(text));
  });

  describe("scientific and technical tokens (issue 24 item 6)", () => {
    const terms = (t: string) => new Set(tokenize(t));
    it("spells Greek letters used as symbols, so NF-κB meets NF-kappaB and IFN-γ meets IFN-gamma", () => {
      expect(tokenize("NF-κB")).toEqual(tokenize("NF-kappaB"));
      expect(tokenize("IFN-γ")).toEqual(tokenize("IFN-gamma"));
      expect(tokenize("TGF-β1 and Κ")).toEqual(tokenize("TGF-beta1 and kappa"));
      // A Greek word stays a Greek word.
      expect(tokenize("λόγος")).toEqual(["λόγος"]);
    });
    it("treats il-17, il17 and IL 17 as one term", () => {
      for (const a of ["il-17", "il17", "IL 17", "IL‐17"]) for (const b of ["il-17", "il17", "IL 17"]) expect(terms(a).has("il17") && terms(b).has("il17")).toBe(true);
      // Only across a plain space: a comma between the words keeps them apart.
      expect(terms("IL, 17 patients").has("il17")).toBe(false);
      expect(terms("in 2019").has("in2019")).toBe(false);
    });
    it("keeps gene-style mixed-case tokens whole instead of splitting off fragments", () => {
      expect(tokenize("FoxO3a")).toEqual(["foxo3a"]);
      expect(tokenize("FoxO3a")).toEqual(tokenize("FOXO3A"));
      expect(terms("SirT1 and IgG1").has("sir")).toBe(false);
      // Identifiers without digits still split.
      expect(tokenize("getUserName").slice(0, 3)).toEqual(["get", "user", "name"]);
    });
  });
});
