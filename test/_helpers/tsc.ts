/**
 * Test harness: type-checks with the real TypeScript compiler (no emit) in a child process, so a compile of a
 * minute never blocks the vitest worker, and returns the diagnostics as plain rows.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One compiler diagnostic. */
export interface Diag {
  /** Absolute path ("" for a global diagnostic). */
  file: string;
  /** 1-based line. */
  line: number;
  code: number;
  message: string;
}

/** What to compile: root files, a tsconfig.json whose options apply, extra options, and file texts replaced in memory. */
export interface TypecheckJob {
  files: string[];
  tsconfig?: string;
  options?: Record<string, unknown>;
  overrides?: Record<string, string>;
  cwd?: string;
}

const runner = fileURLToPath(new URL("./tsc-run.mjs", import.meta.url));

/** Every diagnostic (syntactic, semantic, global, options) of the job. */
export function typecheck(job: TypecheckJob): Promise<Diag[]> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [runner], { cwd: job.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", fail);
    child.on("close", (status) => {
      if (status !== 0) return fail(new Error(`tsc-run exited ${status}: ${stderr.slice(0, 2000)}`));
      done(JSON.parse(stdout) as Diag[]);
    });
    child.stdin.end(JSON.stringify(job));
  });
}

/** Diagnostics as `path:line TSnnnn message` rows, paths relative to `root`. */
export function rows(diags: Diag[], root: string): string[] {
  return diags.map((d) => `${d.file.startsWith(root) ? d.file.slice(root.length + 1) : d.file}:${d.line} TS${d.code} ${d.message}`);
}
