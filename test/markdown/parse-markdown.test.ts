import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/parse-markdown.ts";

const DOC = [
  "---", // 1
  "title: Setup guide", // 2
  "tags: [ops, \"#deploy\", ops]", // 3
  "aliases: Install guide, Setup", // 4
  "created: 2024-01-05", // 5
  "---", // 6
  "Intro with #inline-tag and [[uses::Postgres]].", // 7
  "", // 8
  "# Guide", // 9
  "", // 10
  "## Install", // 11
  "", // 12
  "Run `[[not::this]]` then [[Other Page#Part|the part]] and ![[diagram.png]].", // 13
  "", // 14
  "```", // 15
  "[[neither::that]] #not-a-tag [[NoLink]]", // 16
  "```", // 17
  "", // 18
  "Setext heading", // 19
  "--------------", // 20
  "[[ depends on :: Redis Cache ]] #ops/infra", // 21
].join("\n");

describe("parseMarkdown", () => {
  const p = parseMarkdown(DOC);

  it("reads YAML front matter into plain data", () => {
    expect(p.frontmatter).toEqual({
      title: "Setup guide",
      tags: ["ops", "#deploy", "ops"],
      aliases: "Install guide, Setup",
      created: "2024-01-05",
    });
    expect(p.frontmatterError).toBeUndefined();
  });

  it("normalises tags (array, # removed, deduplicated) and aliases (comma string)", () => {
    expect(p.tags).toEqual(["ops", "deploy"]);
    expect(p.aliases).toEqual(["Install guide", "Setup"]);
  });

  it("reports where the body starts in the original document", () => {
    expect(p.bodyStartLine).toBe(7);
    expect(p.body.split("\n")[0]).toBe("Intro with #inline-tag and [[uses::Postgres]].");
  });

  it("lists top-level headings with depth, text and original line, setext included", () => {
    expect(p.headings).toEqual([
      { depth: 1, text: "Guide", line: 9 },
      { depth: 2, text: "Install", line: 11 },
      { depth: 2, text: "Setext heading", line: 19 },
    ]);
  });

  it("keeps [[relation::entity]] annotations verbatim with their lines, skipping code", () => {
    expect(p.annotations).toEqual([
      { relation: "uses", entity: "Postgres", line: 7, raw: "[[uses::Postgres]]" },
      { relation: "depends on", entity: "Redis Cache", line: 21, raw: "[[ depends on :: Redis Cache ]]" },
    ]);
  });

  it("reads wikilinks with heading, alias and embed, skipping code and annotations", () => {
    expect(p.wikilinks).toEqual([
      { target: "Other Page", heading: "Part", alias: "the part", embed: false, line: 13, raw: "[[Other Page#Part|the part]]" },
      { target: "diagram.png", embed: true, line: 13, raw: "![[diagram.png]]" },
    ]);
  });

  it("reads inline tags outside code, nested tags included", () => {
    expect(p.inlineTags).toEqual([
      { tag: "inline-tag", line: 7 },
      { tag: "ops/infra", line: 21 },
    ]);
  });

  it("lists top-level blocks with original line spans", () => {
    expect(p.blocks.map((b) => [b.type, b.startLine, b.endLine])).toEqual([
      ["paragraph", 7, 7],
      ["heading", 9, 9],
      ["heading", 11, 11],
      ["paragraph", 13, 13],
      ["code", 15, 17],
      ["heading", 19, 20],
      ["paragraph", 21, 21],
    ]);
  });
});

describe("parseMarkdown front matter edge cases", () => {
  it("treats a document without front matter as all body from line 1", () => {
    const p = parseMarkdown("# Title\n\ntext");
    expect(p).toMatchObject({ frontmatter: {}, tags: [], aliases: [], bodyStartLine: 1, body: "# Title\n\ntext" });
  });

  it("treats an opening --- with no closing line as a thematic break, not front matter", () => {
    const p = parseMarkdown("---\nnot: front matter\n\ntext");
    expect(p.frontmatter).toEqual({});
    expect(p.bodyStartLine).toBe(1);
  });

  it("accepts tag and alias singular keys and a comma string of tags", () => {
    const p = parseMarkdown("---\ntag: '#a, b ,, c'\nalias: [X, 2]\n---\nbody");
    expect(p.tags).toEqual(["a", "b", "c"]);
    expect(p.aliases).toEqual(["X", "2"]);
  });

  it("reports unparseable YAML without throwing and keeps the body", () => {
    const p = parseMarkdown("---\ntitle: [unclosed\n---\nbody line");
    expect(p.frontmatter).toEqual({});
    expect(p.frontmatterError).toBe("Frontmatter could not be parsed");
    expect(p.body).toBe("body line");
    expect(p.bodyStartLine).toBe(4);
  });

  it("never evaluates a ---js front matter block", () => {
    const g = globalThis as { __cairnFrontmatterRan?: boolean };
    const p = parseMarkdown("---js\n{ title: (globalThis.__cairnFrontmatterRan = true, 'x') }\n---\nbody");
    expect(g.__cairnFrontmatterRan).toBeUndefined();
    expect(p.frontmatter).toEqual({});
    expect(p.frontmatterError).toBeDefined();
  });

  it("refuses a front matter block whose aliases would expand past the size budget", () => {
    const lines = ["---", "a: &a [x, x, x, x, x, x, x, x, x, x]"];
    for (let i = 0; i < 8; i++) lines.push(`${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`);
    lines.push("---", "body");
    // Refused outright (400 frontmatter_too_large at every door), no longer read as an empty block.
    expect(() => parseMarkdown(lines.join("\n"))).toThrow(expect.objectContaining({ code: "frontmatter_too_large" }));
  });

  it("handles CRLF line ends and a byte-order mark", () => {
    const p = parseMarkdown("\uFEFF---\r\ntags: a\r\n---\r\n# H\r\n");
    expect(p.tags).toEqual(["a"]);
    expect(p.headings).toEqual([{ depth: 1, text: "H", line: 4 }]);
  });
});
