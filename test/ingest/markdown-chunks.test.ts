/**
 * Issue 22 item 5: what docs/write-doors.md promises about markdown chunking holds.
 * A short note (under 2,000 characters) is one chunk whatever its headings;
 * a longer one is cut at headings; and front matter is handled the same way
 * for every chunk: never chunk text, always kept as the chunk's metadata
 * (tags and aliases feed the graph).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

const rows = async (m: TestMemory) =>
  (await m.memory.db.client.execute("SELECT id, content, meta FROM chunks ORDER BY id")).rows.map((r) => ({
    id: Number(r.id), content: String(r.content), meta: JSON.parse(String(r.meta ?? "{}")) as Record<string, unknown>,
  }));

const FM = "---\ntitle: Ada\ntags: [people]\n---\n";

describe("markdown chunking as documented", () => {
  it("a 60-character note with two headings is one chunk", async () => {
    const m = (t = await openTestMemory());
    const doc = "# Ada\n\nMathematician.\n\n## Work\n\nWrote the first program.\n";
    expect(doc.length).toBeLessThan(70);
    const res = await (await m.req("POST", "/ingest/markdown", { title: "Ada", content: doc })).json();
    expect(res.chunks).toHaveLength(1);
    expect(res.chunks[0]).toMatchObject({ heading_path: ["Ada"], line_start: 1 });
    expect((await rows(m)).map((r) => r.content)).toEqual([doc]);
  });

  it("front matter is never chunk text and is kept on every chunk, short or split", async () => {
    const m = (t = await openTestMemory());
    const short = `${FM}# Ada\n\nMathematician.\n\n## Work\n\nWrote the first program.\n`;
    const longSection = (h: string) => `## ${h}\n\n${`${h} detail sentence number one goes here. `.repeat(40)}\n`;
    const long = `${FM}# Babbage\n\n${longSection("Engines")}\n${longSection("Politics")}`;
    expect(long.length).toBeGreaterThan(2000);
    const a = await (await m.req("POST", "/ingest/markdown", { title: "Ada", content: short })).json();
    const b = await (await m.req("POST", "/ingest/markdown", { title: "Babbage", content: long })).json();
    expect(a.chunks).toHaveLength(1);
    expect(b.chunks.length).toBeGreaterThan(1);
    const all = await rows(m);
    expect(all).toHaveLength(1 + b.chunks.length);
    for (const r of all) {
      expect(r.content.startsWith("---")).toBe(false);
      expect(r.content).not.toContain("tags: [people]");
      expect(r.meta.frontmatter).toBe("title: Ada\ntags: [people]");
      expect(r.meta.tags).toEqual(["people"]);
    }
    // Line spans still point into the original document (front matter lines counted).
    expect(a.chunks[0].line_start).toBe(5);
  });

  it("a note that is only front matter is stored as given", async () => {
    const m = (t = await openTestMemory());
    const res = await m.req("POST", "/ingest/markdown", { title: "Empty", content: `${FM}` });
    expect(res.status).toBe(200);
    expect((await rows(m))[0].content).toBe(FM);
  });
});
