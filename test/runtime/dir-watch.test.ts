/**
 * The watch's file events (`src/runtime/dir-watch.ts`): every save into a
 * large folder raises an event naming the file (in place, or through a
 * temporary file and a rename), a directory created, moved or filled later
 * is followed, and hidden directories (`.git`) are not watched at all.
 */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { watchDir } from "../../src/runtime/dir-watch.ts";
import { tempDir } from "../_helpers/memory.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("watchDir", () => {
  it("names every one of 300 saves into a 1,000-file folder, and follows new and moved directories", async () => {
    const root = tempDir("watch-");
    mkdirSync(join(root, "notes"));
    mkdirSync(join(root, ".git", "objects"), { recursive: true });
    for (let i = 0; i < 1000; i++) writeFileSync(join(root, "notes", `n${i}.md`), `note ${i}`);
    const seen = new Map<string, number>();
    const errors: Error[] = [];
    const w = watchDir(root, (p) => { if (p) seen.set(p, (seen.get(p) ?? 0) + 1); }, (e) => errors.push(e));
    await sleep(300);
    const missed: string[] = [];
    for (let k = 0; k < 300; k++) {
      const name = `notes/n${(k * 37) % 200}.md`; // 200 files saved one to two times each
      const before = seen.get(name) ?? 0;
      if (k % 2) writeFileSync(join(root, name), `edit ${k}`);
      else {
        writeFileSync(join(root, `${name}.tmp`), `edit ${k}`);
        renameSync(join(root, `${name}.tmp`), join(root, name));
      }
      // Wait for the event (bounded); a save with no event at all is a miss.
      for (let t = 0; t < 20 && (seen.get(name) ?? 0) === before; t++) await sleep(10);
      if ((seen.get(name) ?? 0) === before) missed.push(name);
    }
    expect(missed).toEqual([]);
    mkdirSync(join(root, "a", "b"), { recursive: true });
    await sleep(150);
    writeFileSync(join(root, "a", "b", "x.md"), "x");
    await sleep(150);
    renameSync(join(root, "a"), join(root, "z"));
    await sleep(150);
    writeFileSync(join(root, "z", "b", "y.md"), "y");
    writeFileSync(join(root, ".git", "objects", "pack"), "p");
    await sleep(300);
    w.close();
    expect(seen.get("a/b/x.md")).toBeGreaterThan(0);
    expect(seen.get("z/b/y.md")).toBeGreaterThan(0);
    expect(seen.has(".git/objects/pack")).toBe(false);
    expect(errors).toEqual([]);
  }, 60_000);
});
