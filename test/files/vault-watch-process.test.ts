/**
 * `cairn reconcile <vault> --watch` as a process beside a running `cairn
 * serve` on the same store: a note saved into the vault is recalled by the
 * server (it learns of the write through the change feed), the watch prints
 * one summary line per batch and progress lines for a burst off a TTY, and
 * SIGTERM stops it cleanly (exit 0, a last line, nothing half-done).
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";
import { startServer, type ServerProc } from "../scale/_procs.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let server: ServerProc | undefined;
afterEach(async () => { await server?.stop(); server = undefined; });

describe("cairn reconcile --watch beside cairn serve", () => {
  it("the server recalls a note saved into the watched vault; SIGTERM stops the watch with exit 0", async () => {
    const data = tempDir("watch-store-");
    const env = { CAIRN_DB_PATH: join(data, "cairn.db"), CAIRN_EMBED_KIND: "none", CAIRN_RUN_SOURCE: "1" };
    const vault = join(tempDir("vault-"), "notes");
    mkdirSync(vault, { recursive: true });
    writeFileSync(join(vault, "start.md"), "# Start\n\nThe vault begins with one note about sourdough starters.\n");
    server = await startServer(env);

    const watch = spawn("node", [join(repoRoot, "bin", "cairn.mjs"), "reconcile", vault, "--watch"], {
      cwd: repoRoot, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    watch.stdout!.on("data", (d) => (out += String(d)));
    watch.stderr!.on("data", (d) => (err += String(d)));
    const exited = new Promise<number | null>((r) => watch.once("exit", (code) => r(code)));
    const until = async (what: () => boolean | Promise<boolean>, label: string) => {
      for (let i = 0; i < 600; i++) {
        if (await what()) return;
        if (watch.exitCode !== null) throw new Error(`watch exited: ${err}`);
        await sleep(100);
      }
      throw new Error(`timed out waiting for ${label}: ${out} ${err}`);
    };
    await until(() => /reconcile: 1 new/.test(out), "the initial reconcile");

    writeFileSync(join(vault, "focaccia.md"), "---\ntags: [baking]\n---\n\n# Focaccia\n\nDimple the focaccia dough with olive oil before the second proof.\n");
    const recalled = async () => {
      const r = await server!.json("POST", "/recall", { query: "focaccia dough olive oil dimple", limit: 3 });
      return r.status === 200 && (r.body.hits as { content: string }[]).some((h) => h.content.startsWith("# Focaccia"));
    };
    await until(recalled, "the server to recall the new note");
    await until(() => /batch \d+: \d+ events, 1 new/.test(out), "the batch line");

    mkdirSync(join(vault, "burst"));
    for (let i = 0; i < 40; i++) writeFileSync(join(vault, "burst", `n${i}.md`), `# Burst ${i}\n\nBurst note ${i} about rye flour.\n`);
    await until(() => /40 new/.test(out), "the burst batch");
    // Off a TTY a burst prints one progress line per step on stderr.
    expect(err).toMatch(/watch 40\/4\d ingest burst\/n\d+\.md/);

    watch.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(err).toMatch(/watch: stopped after \d+ batches/);
    // Every line on stdout is a batch summary.
    for (const line of out.trim().split("\n")) expect(line).toMatch(/^\d\d:\d\d:\d\d (reconcile|batch \d+): .*\(\d+ ms\)$/);
    const stats = await server.json("POST", "/recall", { query: "rye flour burst note", limit: 5 });
    expect(stats.body.hits.length).toBeGreaterThan(0);
  }, 300_000);
});
