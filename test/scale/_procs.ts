/** Real `cairn serve` processes for the issue 20 tests: spawned from bin/cairn.mjs on a free loopback port. */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(new URL("../..", import.meta.url).pathname);

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

/** A running server process. */
export interface ServerProc {
  base: string;
  proc: ChildProcess;
  /** JSON request over real HTTP. */
  json(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
}

/** Spawns `node bin/cairn.mjs serve` with `env` (lexical only unless it says otherwise) and waits for /health. */
export async function startServer(env: Record<string, string>): Promise<ServerProc> {
  const port = await freePort();
  // A server node keeps its boot cache in its data directory (issue 20): a temp one here, not the repository's ./data.
  const cache = env.CAIRN_DB_URL !== undefined && env.CAIRN_NODE_CACHE === undefined ? { CAIRN_NODE_CACHE: join(mkdtempSync(join(tmpdir(), "cairn-node-")), "node-cache") } : {};
  const proc = spawn("node", [join(root, "bin", "cairn.mjs"), "serve"], {
    cwd: root, env: { ...process.env, CAIRN_EMBED_KIND: "none", ...cache, ...env, BIND_PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  proc.stderr!.on("data", (d) => (err += String(d)));
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
  for (let i = 0; i < 900; i++) {
    if (proc.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return { base, proc, json, stop };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`server did not start: ${err}`);
}
