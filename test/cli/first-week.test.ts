/**
 * Issue 22 item 6: CLI rough edges. `query` shows title, snippet and source
 * path; `status` counts entities and relations; `ingest-dir` prints progress
 * lines off a TTY; `serve --help` names the port and environment; usage
 * errors exit 2 and failures 1; `ump import` of a file that is not an export
 * says so.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { queryLines } from "../../src/cli/query.ts";
import { statusLines } from "../../src/cli/status.ts";
import { umpImport } from "../../src/cli/ump-commands.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

const run = promisify(execFile);
const root = resolve(new URL("../..", import.meta.url).pathname);
const bin = join(root, "bin", "cairn.mjs");
async function cairn(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run("node", [bin, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

describe("cairn CLI, in process", () => {
  it("query prints each hit's title, snippet and source path", async () => {
    const m = (t = await openTestMemory());
    await m.memory.sources.ingestFile({ kind: "vault", root: m.dir, path: "people/ada.md", content: "# Ada\n\nAda wrote the first published algorithm for the analytical engine.\n" });
    const lines = await queryLines(m.memory, "analytical engine algorithm", 5, false);
    const text = lines.join("\n");
    expect(text).toContain("Ada");
    expect(text).toContain("first published algorithm");
    expect(text).toContain("people/ada.md");
  });

  it("status counts entities and relations", async () => {
    const m = (t = await openTestMemory());
    await m.req("POST", "/ingest/markdown", { title: "Ledger", content: "# Ledger\n\n[[depends_on::Granite]] settles nightly.\n" });
    const text = (await statusLines(m.memory, false)).join("\n");
    expect(text).toMatch(/entities 2\b/);
    expect(text).toMatch(/relations 1\b/);
    expect(JSON.parse((await statusLines(m.memory, true)).join("\n")).graph).toEqual({ entities: 2, relations: 1 });
  });

  it("ump import of a file that is not an export says so", async () => {
    const m = (t = await openTestMemory());
    const f = join(m.dir, "people.json");
    writeFileSync(f, JSON.stringify([{ name: "Ada", born: 1815 }]));
    await expect(umpImport(m.memory, f)).rejects.toMatchObject({ code: "not_ump_export", message: expect.stringContaining("not a UMP export") });
  });
});

describe("cairn CLI, as a process", { timeout: 600_000 }, () => {
  it("serve --help names the port and environment; usage errors exit 2, failures 1", async () => {
    const help = await cairn(["serve", "--help"]);
    expect(help.code).toBe(0);
    for (const v of ["BIND_PORT", "8765", "BIND_ADDR", "CAIRN_DB_PATH"]) expect(help.stdout).toContain(v);
    expect((await cairn(["no-such-command"])).code).toBe(2);
    expect((await cairn(["query"])).code).toBe(2);
    expect((await cairn(["ump", "frobnicate"])).code).toBe(2);
    const dir = tempDir();
    const notExport = join(dir, "x.json");
    writeFileSync(notExport, JSON.stringify({ hello: "world" }));
    const r = await cairn(["ump", "import", notExport], { CAIRN_DB_PATH: join(dir, "c.db") });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("not a UMP export");
  });

  it("ingest-dir prints a progress line per file when stderr is not a TTY", async () => {
    const dir = tempDir();
    const r = await cairn(["ingest-dir", join(root, "fixtures", "vault")], { CAIRN_DB_PATH: join(dir, "c.db") });
    expect(r.code).toBe(0);
    expect(r.stderr.match(/^ingest \d+\/3 /gm)?.length).toBe(3);
  });
});
