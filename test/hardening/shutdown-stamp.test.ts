/**
 * SPEC §3 last row, issue 23 §5: a clean shutdown stamps the store; after a
 * `kill -9` the next boot, `GET /health/db`, `cairn status` and
 * `cairn check-consistency` report an unclean last shutdown. Real processes.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bootServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

const root = new URL("../../", import.meta.url).pathname;

function cli(env: Record<string, string>, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", join(root, "cli.ts"), ...args], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 60_000 });
}

/** Starts `cairn serve` in a child and resolves once it answers /health. */
async function serveChild(env: Record<string, string>, port: number) {
  const child = spawn(process.execPath, ["--import", "tsx", join(root, "cli.ts"), "serve"], { env: { ...process.env, ...env, BIND_PORT: String(port) }, stdio: "ignore" });
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false);
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 150));
  }
  child.kill("SIGKILL");
  throw new Error("server did not start");
}

describe("the shutdown stamp", () => {
  it("a clean shutdown reports clean; kill -9 is reported unclean by the next boot, status and check-consistency", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
    const a = await bootServer(env, 0);
    expect((await (await fetch(`http://127.0.0.1:${a.server.port}/health/db`)).json()).shutdown).toMatchObject({ last_shutdown: "unknown", server_running: true });
    await a.close();
    const b = await bootServer(env, 0);
    expect((await (await fetch(`http://127.0.0.1:${b.server.port}/health/db`)).json()).shutdown).toMatchObject({ last_shutdown: "clean", server_running: true });
    await b.close();

    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = await serveChild(env, port);
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));

    const status = cli(env, "status");
    expect(status.stdout).toMatch(/last shutdown unclean/);
    const check = cli(env, "check-consistency", "--json");
    expect(check.status).toBe(1);
    expect(JSON.parse(check.stdout).checks.find((c: { name: string }) => c.name === "clean_shutdown").ok).toBe(false);

    const c = await bootServer(env, 0);
    try {
      const h = await (await fetch(`http://127.0.0.1:${c.server.port}/health/db`)).json();
      expect(h.shutdown).toMatchObject({ last_shutdown: "unclean", server_running: true });
      expect(h.durability_setting).toBe("full");
      expect(h.durability.synchronous).toBe("full");
    } finally {
      await c.close();
    }
    // After a clean stop the morning check is green again.
    expect((await (await import("../../src/server.ts")).openMemoryForRuntime((await import("../../src/config/parse-config.ts")).parseConfig(env))
      .then(async (m) => { try { return await m.checkConsistency(); } finally { await m.close(); } })).ok).toBe(true);
  }, 300_000);
});
