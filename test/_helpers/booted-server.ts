/**
 * A real `bootServer` (the `cairn serve` code path, loopback, a free port) on a temp store that a test can restart on
 * the same database, with a JSON POST helper; closed after the file's tests.
 */
import { join } from "node:path";
import { afterAll } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "./memory.ts";

/** The store's environment, and a server on it that `boot()` (re)starts. */
export interface RestartableServer {
  dir: string;
  env: Record<string, string>;
  /** Closes the running server, if any, and boots a new one on the same store. */
  boot(): Promise<BootedServer>;
  /** JSON POST to the running server. */
  post(path: string, body: unknown): Promise<{ status: number; body: any }>;
}

/** Registers an `afterAll` that closes the server. */
export function restartableServer(): RestartableServer {
  const dir = tempDir();
  const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), BIND_ADDR: "127.0.0.1" };
  let server: BootedServer | undefined;
  afterAll(async () => { await server?.close(); });
  return {
    dir, env,
    async boot() {
      await server?.close();
      server = await bootServer(env, 0);
      return server;
    },
    async post(path, body) {
      const res = await fetch(`http://127.0.0.1:${server!.server.port}${path}`, {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
  };
}
