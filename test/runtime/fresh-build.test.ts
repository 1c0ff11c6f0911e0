/** The bin's staleness check (bin/fresh.mjs): a newer source of either extension makes dist/ stale. */
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM helper of the npm bin, no types
import { newestSource } from "../../bin/fresh.mjs";
import { tempDir } from "../_helpers/memory.ts";

describe("bin/fresh.mjs", () => {
  it("counts .tsx sources (the web client's JSX) as well as .ts when finding the newest source", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "web"));
    writeFileSync(join(dir, "a.ts"), "");
    writeFileSync(join(dir, "web", "page.tsx"), "");
    writeFileSync(join(dir, "notes.md"), "");
    utimesSync(join(dir, "a.ts"), 1_000, 1_000);
    utimesSync(join(dir, "web", "page.tsx"), 2_000, 2_000);
    utimesSync(join(dir, "notes.md"), 3_000, 3_000);
    expect(newestSource(dir)).toBe(2_000_000);
  });
});
