import { describe, expect, it } from "vitest";
import { stripMarkdownReferences } from "../../src/hygiene/markdown-references.ts";

describe("stripMarkdownReferences (SPEC §1)", () => {
  it("removes a reference definition line with a title", () => {
    expect(stripMarkdownReferences('See ![x][img]\n\n[img]: https://evil.example/c?d=1 "Title"\nafter')).toBe("See ![x][img]\n\nafter");
  });

  it("removes definitions with angle-bracket destinations, indentation and each title style", () => {
    const text = ["   [a]: <https://a.example/x y>", "[b]: https://b.example 'single'", "[c]: https://c.example (paren)", "keep"].join("\n");
    expect(stripMarkdownReferences(text)).toBe("keep");
  });

  it("removes a definition whose destination or title sits on the next line", () => {
    expect(stripMarkdownReferences("[a]:\n  https://a.example\nkeep")).toBe("keep");
    expect(stripMarkdownReferences('[a]: https://a.example\n  "title on its own line"\nkeep')).toBe("keep");
  });

  it("keeps footnote definitions, ordinary bracketed prose and four-space indented code", () => {
    const text = "[^1]: A footnote.\n[Note]: remember the milk at noon\n    [a]: https://code.example";
    expect(stripMarkdownReferences(text)).toBe(text);
  });

  it("keeps lines inside fenced code blocks", () => {
    const text = "```md\n[a]: https://a.example\n```\n~~~\n[b]: https://b.example\n~~~";
    expect(stripMarkdownReferences(text)).toBe(text);
  });

  it("strips again after a code fence closes", () => {
    expect(stripMarkdownReferences("```\ncode\n```\n[a]: https://a.example\nend")).toBe("```\ncode\n```\nend");
  });

  it("keeps inline links", () => {
    const text = "[text](https://ok.example) and [ref] alone";
    expect(stripMarkdownReferences(text)).toBe(text);
  });
});
