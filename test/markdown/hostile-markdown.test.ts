/**
 * Markdown parsing in time linear in the input (docs/limits.md "Markdown"):
 * `"[x]: "` repeated to 400 K characters took 24 s and `"- [x] "` 15 s with
 * `/health` blocked meanwhile; containers nested per character ran past a
 * minute. The parse now leaves inline content to a bounded second step, cuts a
 * large body into segments where no block continues, and refuses nesting past
 * 32 levels with 400 `markdown_too_complex`. The block structure of ordinary
 * documents is what remark reads in one piece.
 */
import { remark } from "remark";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/markdown/mod.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeAll(async () => { t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }); });
afterAll(async () => { await t.close(); });

const ingest = (content: string) => t.req("POST", "/ingest/markdown", { title: "hostile", content });

describe("pathological markdown over HTTP", () => {
  for (const [name, content] of [
    ["block quotes nested 100,000 deep on one line", ">".repeat(100_000)],
    ["ordered lists nested 50,000 deep on one line", "1. ".repeat(50_000)],
    ["quotes and lists alternating 25,000 deep", "> - ".repeat(25_000)],
    ["a list nested by indentation 300 deep", Array.from({ length: 300 }, (_, i) => `${" ".repeat(i * 2)}- a`).join("\n")],
  ] as const) {
    it(`${name} is refused with 400 markdown_too_complex naming the line`, async () => {
      const res = await ingest(content);
      expect(res.status).toBe(400);
      const e = (await res.json()).error;
      expect(e).toMatchObject({ code: "markdown_too_complex", details: { limit: "nesting", max: 32 } });
      expect(typeof e.details.line).toBe("number");
    });
  }

  for (const [name, unit] of [["definitions", "[x]: "], ["task items", "- [x] "], ["emphasis runs", "*a_"], ["link chains", "[a][b]"]] as const) {
    it(`400 K characters of ${name} are stored, every line inside a chunk`, async () => {
      const content = unit.repeat(Math.ceil(400_000 / unit.length));
      const res = await ingest(content);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.status).toBe("created");
      expect(body.chunks.at(-1).line_end).toBe(content.split("\n").length);
    });
  }
});

/** A document of every block construct, with blank lines inside fences and HTML, long enough to be cut in segments. */
function longDocument(sections: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sections; i++) {
    parts.push(
      `# Section ${i} with *emphasis* and \`code\``, "", `Paragraph ${i} with a [link](https://example.org/${i}) and [[wiki ${i}]].`,
      "continued on a second line", "", "- item one", "- item two", "", "  still item two", "- item three", "",
      "```js", `const x = ${i};`, "", "# not a heading inside a fence", "```", "",
      "<!-- a comment", "", `spanning a blank line ${i} -->`, "", "> quoted", "lazy line", "", "1. first", "2. second", "",
      `Setext ${i}`, "=========", "", "    indented code", "", `[ref${i}]: https://example.org/ref "title"`, "", "***", "",
    );
  }
  return parts.join("\n");
}

describe("segmented parsing keeps the block structure", () => {
  it("a 60-section document has the same top-level blocks and lines as remark in one piece", () => {
    const doc = longDocument(60);
    expect(doc.length).toBeGreaterThan(20_000);
    const reference = ((remark().parse(doc) as { children: { type: string; position: { start: { line: number }; end: { line: number } } }[] }).children)
      .map((n) => `${n.type} ${n.position.start.line}-${n.position.end.line}`);
    const ours = parseMarkdown(doc).blocks.map((b) => `${b.type} ${b.startLine}-${b.endLine}`);
    expect(ours).toEqual(reference);
  });

  it("heading texts still read their inline markup, code spans still hide annotations", () => {
    const p = parseMarkdown("# Install *fast* `now` [docs](x)\n\nUse `[[uses::Fake]]` here and [[uses::Real]].\n");
    expect(p.headings.map((h) => h.text)).toEqual(["Install fast now docs"]);
    expect(p.annotations.map((a) => a.entity)).toEqual(["Real"]);
  });
});
