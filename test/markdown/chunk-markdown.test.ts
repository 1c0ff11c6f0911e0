import { describe, expect, it } from "vitest";
import { chunkMarkdown } from "../../src/markdown/chunk-markdown.ts";
import { parseMarkdown } from "../../src/markdown/parse-markdown.ts";

const DOC = [
  "---", // 1
  "title: x", // 2
  "---", // 3
  "Preamble paragraph.", // 4
  "", // 5
  "# Guide", // 6
  "", // 7
  "## Install", // 8
  "", // 9
  "Step one is short.", // 10
  "", // 11
  "Step two is also short.", // 12
  "", // 13
  "### Linux", // 14
  "apt install thing", // 15
  "", // 16
  "## Usage", // 17
  "Use it.", // 18
].join("\n");

/** Every non-blank body line must sit in exactly one chunk span. */
function coverage(doc: string, maxChars: number): void {
  const p = parseMarkdown(doc);
  const chunks = chunkMarkdown(p, { maxChars });
  const lines = doc.split("\n");
  const seen = new Map<number, number>();
  for (const c of chunks) {
    expect(c.text.length).toBeLessThanOrEqual(maxChars);
    for (let n = c.startLine; n <= c.endLine; n++) seen.set(n, (seen.get(n) ?? 0) + 1);
  }
  for (let n = p.bodyStartLine; n <= lines.length; n++) {
    if (lines[n - 1].trim() === "") continue;
    expect(seen.get(n) ?? 0, `line ${n}`).toBeGreaterThanOrEqual(1);
  }
}

describe("chunkMarkdown", () => {
  it("gives one chunk per section with heading paths and original line spans", () => {
    const chunks = chunkMarkdown(parseMarkdown(DOC), { maxChars: 2000 });
    expect(chunks.map((c) => [c.headingPath, c.startLine, c.endLine])).toEqual([
      [[], 4, 4],
      [["Guide", "Install"], 6, 12],
      [["Guide", "Install", "Linux"], 14, 15],
      [["Guide", "Usage"], 17, 18],
    ]);
    expect(chunks.map((c) => c.index)).toEqual([0, 1, 2, 3]);
  });

  it("carries a heading-only parent into its first child's chunk", () => {
    const [, install] = chunkMarkdown(parseMarkdown(DOC));
    expect(install.text).toBe("# Guide\n\n## Install\n\nStep one is short.\n\nStep two is also short.");
  });

  it("keeps a heading-only section followed by a sibling as its own chunk", () => {
    const chunks = chunkMarkdown(parseMarkdown("## A\n\n## B\ntext"));
    expect(chunks.map((c) => [c.text, c.headingPath])).toEqual([
      ["## A", ["A"]],
      ["## B\ntext", ["B"]],
    ]);
  });

  it("splits a long section at paragraph boundaries and keeps the heading path on every piece", () => {
    const chunks = chunkMarkdown(parseMarkdown(DOC), { maxChars: 45 });
    const install = chunks.filter((c) => c.headingPath.join("/") === "Guide/Install");
    expect(install.map((c) => [c.startLine, c.endLine])).toEqual([
      [6, 10],
      [12, 12],
    ]);
    expect(install[1].text).toBe("Step two is also short.");
  });

  it("splits an overlong paragraph at lines and an overlong line at spaces", () => {
    const doc = `# T\n\n${"word ".repeat(30).trim()}\nshort line`;
    const chunks = chunkMarkdown(parseMarkdown(doc), { maxChars: 40 });
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(40);
    const pieces = chunks.filter((c) => c.startLine === 3 && c.endLine === 3);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.map((c) => c.text).join(" ")).toBe("word ".repeat(30).trim());
    expect(chunks[chunks.length - 1]).toMatchObject({ text: "short line", startLine: 4, endLine: 4, headingPath: ["T"] });
  });

  it("never merges two non-empty sections, however small", () => {
    const chunks = chunkMarkdown(parseMarkdown("# A\na\n# B\nb"), { maxChars: 1000 });
    expect(chunks.map((c) => c.headingPath)).toEqual([["A"], ["B"]]);
  });

  it("resets the heading path when a shallower heading follows a deep one", () => {
    const chunks = chunkMarkdown(parseMarkdown("# A\n### A3\nx\n## B\ny\n# C\nz"));
    expect(chunks.map((c) => c.headingPath)).toEqual([["A", "A3"], ["A", "B"], ["C"]]);
  });

  it("covers every non-blank body line within maxChars, for several limits", () => {
    const doc = `${DOC}\n\n\`\`\`\n${"code line\n".repeat(12)}\`\`\`\n\n${"long ".repeat(100)}`;
    for (const max of [20, 45, 80, 300, 5000]) coverage(doc, max);
  });

  it("packs lines greedily: each chunk of a split block is as long as maxChars allows, with front matter above", () => {
    const doc = `---\ntitle: t\n---\n${Array.from({ length: 400 }, (_, i) => "<div>".slice(0, 1 + (i % 5))).join("\n")}\n`;
    for (const max of [7, 50, 333]) {
      coverage(doc, max);
      const chunks = chunkMarkdown(parseMarkdown(doc), { maxChars: max });
      // Adding the next chunk's first line to a chunk would pass the limit, or the packing stopped too early.
      for (let i = 0; i + 1 < chunks.length; i++) {
        const firstLine = chunks[i + 1]!.text.split("\n")[0]!;
        expect(chunks[i]!.text.length + 1 + firstLine.length).toBeGreaterThan(max);
        expect(chunks[i]!.text.length).toBeLessThanOrEqual(max);
      }
    }
  });

  it("returns no chunks for an empty body", () => {
    expect(chunkMarkdown(parseMarkdown("---\na: 1\n---\n"))).toEqual([]);
  });
});
