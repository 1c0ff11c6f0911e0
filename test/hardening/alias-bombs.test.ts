/**
 * YAML alias expansion in front matter (docs/limits.md "Front matter"): a
 * ~300-byte block of nested anchors once expanded to ten million values
 * (seven levels: 24–29 s with the event loop blocked, RSS 256 → 921 MiB, a
 * 77 MB record stored; eight levels: "JavaScript heap out of memory"). Every
 * door that reads front matter now answers 400 `frontmatter_too_large`,
 * stores nothing, and the process does not grow.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cairnInProcess } from "../_helpers/cli.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { aliasBomb, noteWith, umpMarkdownWith } from "./corpus/alias-bombs.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }); });
afterEach(async () => { await t.close(); });

const MiB = 1024 * 1024;
const count = async (table: string) => Number((await t.memory.db.execute(`SELECT COUNT(*) AS n FROM ${table}`)).rows[0]!.n);

async function expectRefused(res: Response): Promise<Record<string, unknown>> {
  expect(res.status).toBe(400);
  const body = await res.json() as { error: { code: string; details?: Record<string, unknown> } };
  expect(body.error.code).toBe("frontmatter_too_large");
  return body.error.details ?? {};
}

describe("front matter alias bombs over HTTP", () => {
  for (const levels of [7, 8]) {
    it(`POST /ingest?format=ump-md with a ${levels}-level bomb answers 400 frontmatter_too_large, stores nothing, RSS stays flat`, async () => {
      const rss0 = process.memoryUsage().rss;
      const body = umpMarkdownWith(aliasBomb(levels));
      expect(body.length).toBeLessThan(500);
      const details = await expectRefused(await t.req("POST", "/ingest?format=ump-md", body, { "content-type": "text/markdown" }));
      expect(details.limit).toBe("aliases");
      expect(await count("chunks")).toBe(0);
      expect(process.memoryUsage().rss - rss0).toBeLessThan(128 * MiB);
    });

    it(`POST /ingest/markdown with a ${levels}-level bomb answers 400 frontmatter_too_large and stores nothing`, async () => {
      await expectRefused(await t.req("POST", "/ingest/markdown", { title: "bomb", content: noteWith(aliasBomb(levels)) }));
      expect(await count("chunks")).toBe(0);
    });
  }

  it("a note whose front matter uses a few aliases is still read (anchors are not refused outright)", async () => {
    const res = await t.req("POST", "/ingest?format=ump-md", umpMarkdownWith('base: &b {team: ops}\nscope_hint: *b\nlist: [*b, *b]'), { "content-type": "text/markdown" });
    expect(res.status).toBe(200);
    const md = await t.req("POST", "/ingest/markdown", { title: "ok", content: noteWith("common: &c [a, b]\ntags: *c") });
    expect(md.status).toBe(200);
  });

  it("a front matter list of 20,000 values is refused by the value budget", async () => {
    const yaml = `l: [${Array(20_000).fill("1").join(",")}]`;
    const details = await expectRefused(await t.req("POST", "/ingest/markdown", { title: "wide", content: noteWith(yaml) }));
    expect(details).toEqual({ limit: "nodes", max: 10_000 });
  });

  it("90 aliases of a 9,000-character string (under every budget) import, 120 are refused", async () => {
    const ok = umpMarkdownWith(`x: &x "${"y".repeat(9000)}"\nl: [${Array(90).fill("*x").join(", ")}]`);
    expect((await t.req("POST", "/ingest?format=ump-md", ok, { "content-type": "text/markdown" })).status).toBe(200);
    const over = umpMarkdownWith(`x: &x "y"\nl: [${Array(120).fill("*x").join(", ")}]`);
    expect((await expectRefused(await t.req("POST", "/ingest?format=ump-md", over, { "content-type": "text/markdown" }))).limit).toBe("aliases");
  });
});

describe("front matter alias bombs through the file doors", () => {
  it("cairn ump import of an 8-level bomb fails with frontmatter_too_large and imports nothing", async () => {
    const dir = tempDir();
    const file = join(dir, "bomb.ump.md");
    writeFileSync(file, umpMarkdownWith(aliasBomb(8)));
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys") };
    const r = await cairnInProcess(["ump", "import", file], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("frontmatter_too_large");
  });

  it("cairn ingest-dir reports the bomb note with frontmatter_too_large and ingests the others", async () => {
    const dir = tempDir();
    const vault = join(dir, "vault");
    mkdirSync(vault);
    writeFileSync(join(vault, "bomb.md"), noteWith(aliasBomb(8)));
    writeFileSync(join(vault, "fine.md"), "# Fine\n\nA plain note about cairns.\n");
    const r = await cairnInProcess(["ingest-dir", vault], { CAIRN_DB_PATH: join(dir, "c.db") });
    expect(r.stdout.trim()).toBe("ingest-dir: 2 files, 1 created, 0 duplicate, 1 failed");
    expect(r.stderr).toMatch(/bomb\.md: frontmatter_too_large: /);
  });
});
