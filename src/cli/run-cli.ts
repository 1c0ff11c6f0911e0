/**
 * The `cairn` command line as a function (issue 27 item 4): `runCli(argv, io)` parses, runs one command and returns
 * the exit code, writing to the caller's sinks. `cli.ts` calls it with the process's streams and exits with the code;
 * tests call it in-process where they are not about process behaviour (a spawned `node` pays ~1 s of tsx and table load).
 */
import { cac, type CAC } from "cac";
import { ConfigError } from "../config/read-var.ts";
import { isMemoryError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import { runtimeLabel } from "../runtime/platform.ts";
import { actionSections } from "./action-help.ts";
import { type CliIo, type CliState, registerCommands } from "./commands.ts";

export type { CliIo } from "./commands.ts";

/**
 * Exit codes (docs/cli.md): 0 success, 1 a failure (the command ran and something failed), 2 a usage error
 * (unknown command, missing argument, unknown option, bad option value, invalid configuration, a refused parcel).
 */
function isUsageError(e: unknown): boolean {
  if (e instanceof ConfigError) return true;
  if (isMemoryError(e)) return e.code === "invalid_request";
  return (e as { name?: string } | null)?.name === "CACError";
}

const HELP_RENDERED = Symbol("help rendered");

/**
 * cac prints help with `console.info`; its help callback sees the finished sections, so the text is taken there and
 * written to `io` instead (the throw stops cac's own print).
 */
function routeHelp(cli: CAC, io: CliIo): void {
  cli.globalCommand.helpCallback = (sections) => {
    // A command's own help: cac shows its usage and options only; add what it does and, for a command that takes an
    // action, each action with an example (the root help keeps cac's command list).
    const cmd = cli.matchedCommand;
    if (cmd) {
      const at = sections.findIndex((s) => s.title === "Usage") + 1;
      sections.splice(at, 0, ...(cmd.description ? [{ body: `  ${cmd.description}` }] : []), ...actionSections(cmd.name));
    }
    io.out(sections.map((s) => s.title ? `${s.title}:\n${s.body}` : s.body).join("\n\n"));
    throw HELP_RENDERED;
  };
  const cacOutputHelp = cli.outputHelp.bind(cli);
  cli.outputHelp = () => {
    try {
      cacOutputHelp();
    } catch (e) {
      if (e !== HELP_RENDERED) throw e;
    }
  };
  cli.outputVersion = () => io.out(`cairn/${VERSION} ${runtimeLabel()}`);
}

/** Runs `cairn …argv` (argv without the program name); resolves to the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const cli = cac("cairn");
  const state: CliState = { failed: false };
  registerCommands(cli, io, state);
  cli.help();
  cli.version(VERSION);
  routeHelp(cli, io);
  try {
    cli.parse(["node", "cairn", ...argv], { run: false });
    if (!cli.matchedCommand) {
      if (cli.options.help || cli.options.version) return 0;
      if (cli.args.length) {
        io.err(`unknown command: ${cli.args[0]} (see cairn --help)\n`);
        return 2;
      }
      cli.outputHelp();
      return 0;
    }
    await cli.runMatchedCommand();
    return state.failed ? 1 : 0;
  } catch (e) {
    if (e instanceof ConfigError) io.err(`cairn: refusing to boot: ${e.message}\n`);
    else if (isMemoryError(e)) io.err(`cairn: ${e.code}: ${e.message}\n`);
    else io.err(`cairn: ${(e as Error).message}\n`);
    return isUsageError(e) || state.usage ? 2 : 1;
  }
}
