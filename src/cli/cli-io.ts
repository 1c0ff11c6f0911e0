/** What every `cairn` command gets: its output sinks and environment, and the failure flag (exit code 1). */
import type { CliOutput } from "./progress.ts";

/** A command's sinks and environment. */
export interface CliIo extends CliOutput {
  /** The environment the config is parsed from (the process's, or a test's). */
  env: Record<string, string | undefined>;
}

/** Set by a command that ran and failed (exit code 1), or whose error is a usage error (exit code 2). */
export interface CliState {
  failed: boolean;
  /** The error the command threw is the caller's input refused (a refused parcel): exit 2, docs/cli.md. */
  usage?: boolean;
}
