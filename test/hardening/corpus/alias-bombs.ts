/**
 * YAML alias expansion ("billion laughs") in front matter, through every HTTP
 * door that reads front matter. Each level multiplies by ten: seven levels are
 * ten million values from ~300 bytes.
 */
import type { HostileCase } from "./types.ts";

/** Front matter YAML whose `levels`-th anchor expands to 10^levels strings. */
export function aliasBomb(levels: number): string {
  const names = "abcdefghijklmnopqrstuvwxyz";
  const lines = [`a: &a [${Array(10).fill('"lol"').join(", ")}]`];
  for (let i = 1; i < levels; i++) lines.push(`${names[i]}: &${names[i]} [${Array(10).fill(`*${names[i - 1]}`).join(", ")}]`);
  return lines.join("\n");
}

/** A UMP markdown projection record whose front matter is `yaml`. */
export function umpMarkdownWith(yaml: string): string {
  return `---\nkind: semantic\n${yaml}\n---\nbody text\n`;
}

/** A plain markdown note whose front matter is `yaml`. */
export function noteWith(yaml: string): string {
  return `---\n${yaml}\n---\n# Note\n\nbody text\n`;
}

const REFUSED = { status: [400], code: "frontmatter_too_large" };
const MD = { "content-type": "text/markdown" };

export const cases: HostileCase[] = [
  ...[3, 7, 8, 12].map((levels): HostileCase => ({
    name: `ump-md import, ${levels}-level alias bomb`, method: "POST", path: "/ingest?format=ump-md", headers: MD,
    body: () => umpMarkdownWith(aliasBomb(levels)), expect: REFUSED,
  })),
  ...[7, 8].map((levels): HostileCase => ({
    name: `/ingest/markdown, ${levels}-level alias bomb`, method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({ title: "bomb", content: noteWith(aliasBomb(levels)) }), expect: REFUSED,
  })),
  {
    name: "ump-md import, 120 plain aliases of one scalar", method: "POST", path: "/ingest?format=ump-md", headers: MD,
    body: () => umpMarkdownWith(`x: &x "${"y".repeat(900_000 / 120)}"\nl: [${Array(120).fill("*x").join(", ")}]`), expect: REFUSED,
  },
  {
    name: "ump-md import, a 100-alias list of a 9,000-character string (900 KB expanded is under the budget)", method: "POST",
    path: "/ingest?format=ump-md", headers: MD,
    body: () => umpMarkdownWith(`x: &x "${"y".repeat(9000)}"\nl: [${Array(90).fill("*x").join(", ")}]`),
    // Within every budget: a record is imported (or refused for its own reasons), never a 500.
    expect: { status: [200, 400] },
  },
  {
    name: "/ingest/markdown, front matter nested 5,000 flow levels deep", method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({ title: "deep", content: noteWith(`a: ${"[".repeat(5000)}${"]".repeat(5000)}`) }), expect: REFUSED,
  },
  {
    name: "/ingest/markdown, a front matter list of 20,000 values", method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({ title: "wide", content: noteWith(`l: [${Array(20_000).fill("1").join(",")}]`) }), expect: REFUSED,
  },
  {
    name: "/ingest/markdown, 20,000 front matter keys (past the source budget)", method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({ title: "wide", content: noteWith(Array.from({ length: 20_000 }, (_, i) => `k${i}: ${i}`).join("\n")) }),
    expect: REFUSED,
  },
  {
    name: "/ingest/markdown, a merge-key chain of 60 levels", method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({
      title: "merge", content: noteWith(["m0: &m0 {a: 1, b: 2}", ...Array.from({ length: 60 }, (_, i) => `m${i + 1}: &m${i + 1} {<<: [*m${i}, *m${i}], k${i}: 1}`)].join("\n")),
    }),
    expect: REFUSED,
  },
];
