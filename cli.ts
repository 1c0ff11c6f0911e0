/**
 * `cairn`: the operator command line (SPEC §4.12), a thin binding over the
 * composition root. Every command has `--help`; failures exit non-zero.
 * The commands live in src/cli/ (`runCli`); this entry only binds the process: argv, env, streams and the exit code.
 */
import { runCli } from "./src/cli/run-cli.ts";
import { processOutput } from "./src/cli/progress.ts";
import { isDeno, readEnv } from "./src/runtime/platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;
const args: string[] = isDeno ? g.Deno.args : g.process.argv.slice(2);

const code = await runCli(args, { ...processOutput, env: readEnv() });
// A clean run returns without exiting: `serve` and `mcp` keep the process alive after their action resolves.
if (code !== 0) {
  if (isDeno) g.Deno.exit(code);
  else g.process.exit(code);
}
