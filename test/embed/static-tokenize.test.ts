import { describe, expect, it } from "vitest";
import { splitIdentifier, wordTokens } from "../../src/embed/static-tokenize.ts";

describe("static tokeniser", () => {
  it("cuts text into Unicode word tokens, keeping inner hyphens, underscores and apostrophes", () => {
    expect(wordTokens("Re-run get_user_by_id, it's 42% done — naïve café: 東京!")).toEqual(
      ["Re-run", "get_user_by_id", "it's", "42", "done", "naïve", "café", "東京"],
    );
    expect(wordTokens("")).toEqual([]);
    expect(wordTokens("-- __ ''")).toEqual([]);
  });

  it("splits identifiers on case changes, separators and digit runs", () => {
    expect(splitIdentifier("getUserById")).toEqual(["get", "user", "by", "id"]);
    expect(splitIdentifier("get_user_by_id")).toEqual(["get", "user", "by", "id"]);
    expect(splitIdentifier("XMLHttpRequest")).toEqual(["xml", "http", "request"]);
    expect(splitIdentifier("utf8Decoder2")).toEqual(["utf", "8", "decoder", "2"]);
    expect(splitIdentifier("plain")).toEqual(["plain"]);
  });

  it("folds compatibility forms and curly apostrophes", () => {
    expect(wordTokens("ﬁle don’t")).toEqual(["file", "don't"]);
  });
});
