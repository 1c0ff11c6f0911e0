import { describe, expect, it } from "vitest";
import { analyze } from "../../src/lexical/analyzer.ts";
import { parseLex, plainQuery } from "../../src/lexical/lex-query.ts";

describe("parseLex", () => {
  it("scores bare words", () => {
    expect(parseLex("apples oranges", analyze)).toEqual({ terms: ["appl", "orang"], required: [], excluded: [] });
  });

  it("makes a quoted phrase required and scored", () => {
    expect(parseLex('"white matter" brain', analyze)).toEqual({
      terms: ["white", "matter", "brain"],
      required: [["white", "matter"]],
      excluded: [],
    });
  });

  it("excludes -word and -\"phrase\" without scoring them", () => {
    expect(parseLex('cell -mouse -"in vitro"', analyze)).toEqual({
      terms: ["cell"],
      required: [],
      excluded: [["mous"], ["vitro"]],
    });
  });

  it("excludes an identifier as the phrase of its parts", () => {
    expect(parseLex("query -foo-bar", analyze).excluded).toEqual([["foo", "bar"]]);
  });

  it("runs an unterminated quote to the end", () => {
    expect(parseLex('"tumor suppressor gene', analyze).required).toEqual([["tumor", "suppressor", "gene"]]);
  });

  it("treats a lone or trailing dash as nothing", () => {
    expect(parseLex("cell - growth -", analyze)).toEqual({ terms: ["cell", "growth"], required: [], excluded: [] });
  });

  it("ignores a phrase made only of stopwords", () => {
    expect(parseLex('"of the" cell', analyze)).toEqual({ terms: ["cell"], required: [], excluded: [] });
  });
});

describe("plainQuery", () => {
  it("never interprets syntax", () => {
    expect(plainQuery('"IL-6" -5 degrees', analyze)).toEqual({ terms: ["il", "6", "5", "degre", "il6"], required: [], excluded: [] });
  });
});
