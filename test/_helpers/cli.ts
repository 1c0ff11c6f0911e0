/** Runs the `cairn` bin as a user would: a real process, lexical-only unless the env says otherwise; never throws. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
/** The repository root (the bin's working directory). */
export const repoRoot = resolve(new URL("../..", import.meta.url).pathname);

/** `node bin/cairn.mjs …args` with `env` over the test's environment; the exit code, stdout and stderr. */
export async function cairn(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run("node", [join(repoRoot, "bin", "cairn.mjs"), ...args], { cwd: repoRoot, env: { ...process.env, CAIRN_EMBED_KIND: "none", ...env }, timeout: 60_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** The last line of a command's output. */
export const lastLine = (s: string) => s.trim().split("\n").pop()!;
