/**
 * Types that catch mistakes: the examples in examples/ (the canonical library, client and hc<AppType> snippets)
 * compile under `tsc --strict`, and each mistake in test/types/fixtures/mistakes.ts — a wrong-typed or misspelt
 * recall field, a misspelt hit field, a number for an ingest title — fails to compile with the diagnostic its
 * `@ts-expect-error TSnnnn` line names, for the library (`cairn`) and the typed client (`cairn/client`) alike.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { rows, typecheck, type Diag } from "../_helpers/tsc.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const fixture = join(root, "test/types/fixtures/mistakes.ts");
const examples = readdirSync(join(root, "examples")).filter((f) => f.endsWith(".ts")).map((f) => join(root, "examples", f));

describe("types a consumer compiles against", () => {
  // One program for both checks: the examples' own tsconfig (strict), the fixture with its directives removed.
  let diags: Promise<Diag[]> | undefined;
  const compile = () => {
    const stripped = readFileSync(fixture, "utf8").replace(/\/\/ @ts-expect-error/g, "// expect-error");
    diags ??= typecheck({ files: [...examples, fixture], tsconfig: join(root, "examples/tsconfig.json"), overrides: { [fixture]: stripped } });
    return diags;
  };

  it("the examples compile under tsc --strict", { timeout: 300_000 }, async () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    expect(rows((await compile()).filter((d) => d.file !== fixture), root)).toEqual([]);
  });

  it("each mistake fails to compile with its named diagnostic, and nothing else does", { timeout: 300_000 }, async () => {
    const lines = readFileSync(fixture, "utf8").split("\n");
    const expected: string[] = [];
    lines.forEach((l, i) => {
      const m = /@ts-expect-error (TS\d+)/.exec(l);
      if (m) expected.push(`${i + 2} ${m[1]}`);
    });
    expect(expected.length).toBeGreaterThanOrEqual(10);
    const got = (await compile()).filter((d) => d.file === fixture).map((d) => `${d.line} TS${d.code}`);
    expect([...new Set(got)].sort()).toEqual(expected.sort());
  });
});
