/** Runs the `cairn` bin as a user would: a real process, lexical-only unless the env says otherwise; never throws. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { runCli } from "../../src/cli/run-cli.ts";

const run = promisify(execFile);
/** The repository root (the bin's working directory). */
export const repoRoot = resolve(new URL("../..", import.meta.url).pathname);

/** `node bin/cairn.mjs …args` with `env` over the test's environment; the exit code, stdout and stderr. */
export async function cairn(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run("node", [join(repoRoot, "bin", "cairn.mjs"), ...args], { cwd: repoRoot, env: { ...process.env, CAIRN_EMBED_KIND: "none", ...env }, timeout: 240_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

/** The last line of a command's output. */
export const lastLine = (s: string) => s.trim().split("\n").pop()!;

/**
 * `cairn …args` in this process through `runCli` (the entry cli.ts calls): the same commands, exit codes and output,
 * without a process start (~1 s of tsx and module load on an idle machine). For tests not about process behaviour;
 * each command keeps at least one real-process test through `cairn`.
 */
export async function cairnInProcess(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    out: (line) => { stdout += `${line}\n`; },
    err: (text) => { stderr += text; },
    errIsTTY: false,
    env: { ...process.env, CAIRN_EMBED_KIND: "none", ...env },
  });
  return { code, stdout, stderr };
}
