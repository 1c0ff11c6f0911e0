/**
 * Real `cairn serve` processes for tests and benches: a free loopback port from the OS, and `node bin/cairn.mjs serve`
 * spawned on it, waited for until `GET /health` answers 200.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { join, resolve } from "node:path";

// Not imported from ./cli.ts: that module loads the whole CLI, which a port or a child process does not need.
const repoRoot = resolve(new URL("../..", import.meta.url).pathname);

/** A free loopback port from the OS. */
export async function freePort(): Promise<number> {
  return await new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

/** How `spawnServe` starts the process. */
export interface ServeOptions {
  /** The port to listen on; a free one when absent. */
  port?: number;
  /** Flags for node, before the script. */
  nodeArgs?: string[];
  /** The server's stderr: kept for the boot error (default) or passed through to this process. */
  stderr?: "pipe" | "inherit";
  /** How many 100 ms waits for /health before giving up (default 900). */
  bootTries?: number;
}

/** A running server process. */
export interface ServeProc {
  base: string;
  proc: ChildProcess;
  /** JSON request over real HTTP. */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** SIGTERM, then wait for the exit (at once when it has already exited). */
  stop(): Promise<void>;
}

/** Spawns `node bin/cairn.mjs serve` with `env` over this process's environment and waits for /health. */
export async function spawnServe(env: Record<string, string>, o: ServeOptions = {}): Promise<ServeProc> {
  const port = o.port ?? await freePort();
  const proc = spawn("node", [...o.nodeArgs ?? [], join(repoRoot, "bin", "cairn.mjs"), "serve"], {
    cwd: repoRoot, env: { ...process.env, ...env, BIND_PORT: String(port) }, stdio: ["ignore", "ignore", o.stderr ?? "pipe"],
  });
  let err = "";
  proc.stderr?.on("data", (d) => (err += String(d)));
  const base = `http://127.0.0.1:${port}`;
  const json = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: r.status, body: await r.json() };
  };
  const stop = async () => {
    if (proc.exitCode !== null || proc.signalCode !== null) return;
    const done = new Promise<void>((r) => proc.once("exit", () => r()));
    proc.kill("SIGTERM");
    await done;
  };
  for (let i = 0; i < (o.bootTries ?? 900); i++) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, proc, json, stop };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server did not start: ${err}`);
}
