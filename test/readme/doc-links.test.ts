/**
 * The README and the docs pages link to each other by relative path and heading anchor; a page renamed or a heading
 * reworded must not leave a reader at a dead link. Anchors follow GitHub's heading slugs (lower case, punctuation
 * dropped, spaces to hyphens, `-1`, `-2` for repeats).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(new URL("../..", import.meta.url).pathname);
const pages = ["README.md", ...readdirSync(join(root, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];

/** GitHub's slug of a heading's text. */
function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "").replace(/ /g, "-");
}

/** The anchors a markdown page defines (fenced code skipped). */
function anchors(text: string): Set<string> {
  const out = new Set<string>();
  const seen = new Map<string, number>();
  for (const m of text.replace(/^```[\s\S]*?^```$/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

describe("documentation links", () => {
  it("has a docs index and the pages the README's documentation table names", () => {
    expect(pages).toContain("docs/README.md");
    expect(pages).toContain("docs/benchmarks.md");
  });

  for (const page of pages) {
    it(`${page}: every relative link names an existing file and heading`, () => {
      const text = readFileSync(join(root, page), "utf8");
      const links = [...text.replace(/^```[\s\S]*?^```$/gm, "").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));
      for (const link of links) {
        const [path, anchor] = link.split("#") as [string, string | undefined];
        const target = path ? join(dirname(join(root, page)), path) : join(root, page);
        expect(existsSync(target), `${page} → ${link}: no such file`).toBe(true);
        if (anchor && target.endsWith(".md")) expect([...anchors(readFileSync(target, "utf8"))], `${page} → ${link}: no such heading`).toContain(anchor);
      }
    });
  }
});
