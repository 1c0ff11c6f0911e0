/**
 * Pathological markdown, one case per construct that was superlinear in
 * remark (docs/limits.md "Markdown"): through `/ingest/markdown` and the UMP
 * markdown import. Sizes stay under the 1,000,000-byte content limit; the
 * 400 K cases are `heavy` (`npm run fuzz`), 100 K ones run in `npm test`.
 */
import type { HostileCase } from "./types.ts";

const rep = (unit: string, n: number) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);

/** Generators of each construct at a size. */
export const CONSTRUCTS: Record<string, (n: number) => string> = {
  "definitions": (n) => rep("[x]: ", n),
  "task items": (n) => rep("- [x] ", n),
  "open brackets": (n) => rep("[", n),
  "bracket-paren chains": (n) => rep("[a](", n),
  "image openers": (n) => rep("![", n),
  "reference link chains": (n) => rep("[a][b]", n),
  "emphasis runs": (n) => rep("*a", n),
  "mixed emphasis": (n) => rep("*_", n),
  "backtick runs of growing length": (n) => { let s = ""; for (let k = 1; s.length < n; k++) s += "`".repeat(k) + "a"; return s.slice(0, n); },
  "setext headings": (n) => rep("a\n=\n", n),
  "ATX headings": (n) => rep("# a *b*\n", n),
  "definition titles left open": (n) => rep('[a]: b "\n', n),
  "HTML block lines": (n) => rep("<div>\n", n),
  "list items": (n) => rep("- a\n", n),
  "wikilink openers": (n) => rep("[[", n),
  "annotation openers": (n) => rep("[[a::", n),
};

/** Constructs refused outright (nesting past 32 levels). */
export const TOO_DEEP: Record<string, string> = {
  "block quotes nested on one line": ">".repeat(200_000),
  "ordered lists nested on one line": "1. ".repeat(100_000),
  "quotes and lists alternating": "> - ".repeat(50_000),
  "lists nested by indentation": Array.from({ length: 300 }, (_, i) => `${" ".repeat(i * 2)}- a`).join("\n"),
};

const doc = (content: string) => () => JSON.stringify({ title: "hostile markdown", content });

export const cases: HostileCase[] = [
  ...Object.entries(CONSTRUCTS).flatMap(([name, make]): HostileCase[] => [
    { name: `/ingest/markdown, 100 K of ${name}`, method: "POST", path: "/ingest/markdown", body: doc(make(100_000)), expect: { status: [200] } },
    { name: `/ingest/markdown, 400 K of ${name}`, method: "POST", path: "/ingest/markdown", body: doc(make(400_000)), expect: { status: [200] }, heavy: true },
  ]),
  ...Object.entries(TOO_DEEP).map(([name, content]): HostileCase => ({
    name: `/ingest/markdown, ${name}`, method: "POST", path: "/ingest/markdown", body: doc(content),
    expect: { status: [400], code: "markdown_too_complex" },
  })),
  {
    name: "ump-md import, a record body of 100 K definitions", method: "POST", path: "/ingest?format=ump-md",
    headers: { "content-type": "text/markdown" }, body: () => `---\nkind: semantic\n---\n${rep("[x]: ", 100_000)}\n`, expect: { status: [200] },
  },
];
