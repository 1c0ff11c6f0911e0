/**
 * The shutdown stamp tells the truth (SPEC §3 last row): it changes only after a successful listen and only for the
 * process that owns it; `status` and `check-consistency` probe whether the stamping process lives; a refused request
 * never leaves it dirty. Real processes: `bin/cairn.mjs serve`, `status`, `check-consistency`, SIGTERM and SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cairn, repoRoot } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";
import { freePort } from "../_helpers/serve.ts";

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** `cairn serve` in a child process; `exit` resolves with its code (or the signal name). */
function serve(env: Record<string, string>, port: number) {
  const proc = spawn("node", [join(repoRoot, "bin", "cairn.mjs"), "serve"], {
    cwd: repoRoot, env: { ...process.env, CAIRN_EMBED_KIND: "none", ...env, BIND_PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(proc);
  let out = "";
  proc.stdout!.on("data", (d) => (out += String(d)));
  proc.stderr!.on("data", (d) => (out += String(d)));
  const exit = new Promise<number | string>((r) => proc.once("exit", (code, sig) => r(code ?? sig ?? -1)));
  return { proc, out: () => out, exit };
}

async function healthy(port: number, out: () => string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok, () => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not start: ${out()}`);
}

const consistency = async (env: Record<string, string>) => {
  const r = await cairn(["check-consistency", "--json"], env);
  return { code: r.code, check: JSON.parse(r.stdout).checks.find((c: { name: string }) => c.name === "clean_shutdown") };
};

describe("the shutdown stamp belongs to the serving process", () => {
  it("a second serve that cannot listen leaves the first's stamp alone; after kill -9 of the first the store reads unclean", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
    const port = await freePort();
    const first = serve(env, port);
    await healthy(port, first.out);

    const second = serve(env, port);
    expect(await second.exit).not.toBe(0);
    expect(second.out()).toMatch(/EADDRINUSE|address already in use/i);

    // The first still serves and still owns the stamp.
    const running = await cairn(["status"], env);
    expect(running.stdout).toContain(`server running (pid ${first.proc.pid})`);
    expect((await consistency(env)).check).toMatchObject({ ok: true, detail: "server running" });

    first.proc.kill("SIGKILL");
    await first.exit;
    const status = await cairn(["status"], env);
    expect(status.stdout).toMatch(/last shutdown unclean/);
    expect(status.stdout).not.toMatch(/server running/);
    const after = await consistency(env);
    expect(after.code).toBe(1);
    expect(after.check).toMatchObject({ ok: false });
    expect(after.check.detail).toContain(`pid ${first.proc.pid}`);
  }, 240_000);

  it("SIGTERM after a refused 1.7 MB snapshot import (409, body unread) exits 0 and stamps the store clean", async () => {
    const dir = tempDir();
    const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
    const port = await freePort();
    const srv = serve(env, port);
    await healthy(port, srv.out);
    const made = await fetch(`http://127.0.0.1:${port}/domains`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "work" }) });
    expect(made.status).toBeLessThan(300);
    // The upload is refused before the route reads it (the domain exists); the client keeps sending.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, method: "POST", path: "/domains/work/import", headers: { "content-type": "application/octet-stream", "content-length": String(1_700_000) } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on("error", reject);
      req.write(Buffer.alloc(1_700_000, 0x61));
    });
    expect(status).toBe(409);
    srv.proc.kill("SIGTERM");
    expect(await srv.exit).toBe(0);
    const after = await consistency(env);
    expect(after.check).toMatchObject({ ok: true, detail: "last shutdown was clean" });
    expect(after.code).toBe(0);
  }, 240_000);
});
