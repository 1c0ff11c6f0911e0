import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { cairnInProcess } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";

const run = promisify(execFile);
const root = resolve(new URL("../..", import.meta.url).pathname);
const bin = join(root, "bin", "cairn.mjs");

async function cairn(args: string[], env: Record<string, string> = {}) {
  try {
    const r = await run("node", [bin, ...args], { cwd: root, env: { ...process.env, ...env }, timeout: 240_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

// `cairn` is a fresh process that loads the embedding table; `cairnInProcess` runs the same entry (runCli) here.
// Each command keeps at least one real-process call; the rest, not about process behaviour, run in-process (issue 27).
// Allow for a loaded 2-core machine.
describe("cairn CLI", { timeout: 300_000 }, () => {
  it("prints help for the root and every command", async () => {
    const rootHelp = await cairn(["--help"]);
    expect(rootHelp.code).toBe(0);
    for (const cmd of ["serve", "status", "ingest-dir", "ump", "reconcile", "mcp"]) {
      expect(rootHelp.stdout).toContain(cmd);
      const h = await cairnInProcess([cmd, "--help"], {});
      expect(h.code).toBe(0);
      expect(h.stdout).toContain(`cairn ${cmd}`);
    }
  });

  it("ingests a markdown directory with titles from headings or file names, then is idempotent", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_EMBED_KIND: "static" };
    const first = await cairn(["ingest-dir", join(root, "fixtures", "vault")], env);
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe("ingest-dir: 3 files, 3 created, 0 duplicate, 0 failed");
    const c = createClient({ url: `file:${env.CAIRN_DB_PATH}` });
    const titles = (await c.execute("SELECT title FROM chunks ORDER BY title")).rows.map((r) => r.title);
    c.close();
    expect(titles).toEqual(["Payments runbook", "Welcome to the vault", "untitled-note"]);
    const second = await cairnInProcess(["ingest-dir", join(root, "fixtures", "vault")], env);
    expect(second.stdout.trim()).toBe("ingest-dir: 3 files, 0 created, 3 duplicate, 0 failed");
  });

  it("reports status of the store", async () => {
    const dir = tempDir();
    const r = await cairn(["status", "--json"], { CAIRN_DB_PATH: join(dir, "c.db") });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).durability.journal_mode).toBe("wal");
  });

  it("refuses to boot on a malformed BIND_PORT with a one-line message naming it", async () => {
    const r = await cairn(["serve"], { BIND_PORT: "eighty", CAIRN_DB_PATH: join(tempDir(), "c.db") });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("BIND_PORT");
  });

  it("refuses a public bind without BIND_PUBLIC=1", async () => {
    const r = await cairnInProcess(["serve"], { BIND_ADDR: "0.0.0.0", CAIRN_DB_PATH: join(tempDir(), "c.db") });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("BIND_PUBLIC=1");
  });

  it("exits non-zero on an unknown command and on a missing directory", async () => {
    expect((await cairn(["frobnicate"])).code).not.toBe(0);
    const missing = await cairnInProcess(["ingest-dir", "/nonexistent/dir"], { CAIRN_DB_PATH: join(tempDir(), "c.db") });
    expect(missing.code).not.toBe(0);
    expect(missing.stderr.trim()).toBe("cairn: ingest-dir: /nonexistent/dir is not a readable directory");
  });
});

describe("cairn query and explain", () => {
  it("prints a table, JSON for scripts, and an explanation with ranks and telemetry", async () => {
    const dir = tempDir();
    // The production profile in both the processes and the in-process calls.
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_EMBED_KIND: "static" };
    await cairnInProcess(["ingest-dir", join(root, "fixtures", "vault")], env);
    const table = await cairn(["query", "ledger payments nightly", "--k", "2"], env);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^rank\s+id\s+score/m);
    expect(table.stdout).toContain("Payments runbook");
    const json = await cairnInProcess(["query", "ledger payments nightly", "--k", "1", "--json"], env);
    const parsed = JSON.parse(json.stdout);
    expect(parsed.hits).toHaveLength(1);
    expect(parsed.hits[0].title).toBe("Payments runbook");
    const explain = await cairn(["explain", "ledger payments nightly"], env);
    expect(explain.stdout).toMatch(/ranks: .*fts_rank=0/);
    expect(explain.stdout).toContain("telemetry: ");
    const bad = await cairnInProcess(["query", "x", "--k", "500"], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("limit_out_of_range");
  }, 300_000);
});
