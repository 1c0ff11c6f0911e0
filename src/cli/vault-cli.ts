/**
 * Registers the vault and chat-history commands (`cairn reconcile`, `cairn import`; docs/vault.md) on the `cairn`
 * command line. The work lives in `vault-commands.ts` and `import-commands.ts`.
 */
import type { CAC } from "cac";
import { parseConfig } from "../config/parse-config.ts";
import { MemoryError } from "../core/errors.ts";
import { openMemoryForRuntime } from "../server.ts";
import type { CliIo, CliState } from "./cli-io.ts";
import { importCommand, type ImportCliOptions } from "./import-commands.ts";
import { reconcileCommand, type ReconcileCliOptions } from "./vault-commands.ts";

/** Registers `reconcile` and `import`. */
export function registerVaultCommands(cli: CAC, io: CliIo, state: CliState): void {
  cli.command("reconcile <path>", "Two-way reconcile of a markdown vault with the store; --watch follows it live")
    .usage(`reconcile <path> [--watch] [--one-way] [--dry-run]

  Notes (*.md) flow into the store through the markdown door; record files (*.ump.md) flow both ways.
  --watch keeps following the vault (new, edited, renamed, moved, deleted notes) until Ctrl-C or SIGTERM,
  beside a running \`cairn serve\` on the same store. Details: docs/vault.md`)
    .example("cairn reconcile ~/notes                 # bring the store in line with the vault once")
    .example("cairn reconcile ~/notes --watch         # and keep following it; one line per batch")
    .example("cairn reconcile ~/notes --dry-run       # print the plan, change nothing")
    .option("--kind <kind>", "Source kind (vault)", { default: "vault" })
    .option("--project <name>", "Project whose UMP records are written into the vault (default: the directory name)")
    .option("--one-way", "Read the vault only; write nothing into it")
    .option("--dry-run", "Print the plan; change nothing")
    .option("--watch", "Keep following the vault until Ctrl-C / SIGTERM (one summary line per batch)")
    .option("--debounce <ms>", "--watch: quiet time after the last file event before a batch runs (default 150)")
    .option("--json", "Print the report as JSON (--watch: one JSON line per batch)")
    .action(async (path: string, o: ReconcileCliOptions & { kind: string }) => {
      if (o.kind !== "vault") throw new MemoryError("invalid_request", `--kind must be vault, got "${o.kind}"`);
      if (o.watch && o.dryRun) throw new MemoryError("invalid_request", "--watch and --dry-run do not go together");
      const memory = await openMemoryForRuntime(parseConfig(io.env));
      try {
        if (await reconcileCommand(memory, path, o, io)) state.failed = true;
      } finally {
        await memory.close();
      }
    });

  cli.command("import <format> [...paths]", "Import chat history: a ChatGPT or Claude data export (conversations.json, its shards, or the zip)")
    .usage(`import chatgpt|claude <export…> [--me <name>] [--assistant-name <name>]

  Each conversation becomes one session (its date and title from the export), each message a turn with its
  speaker, time and id; ChatGPT's shown branch only. Importing again stores only what is new. Details: docs/vault.md`)
    .example("cairn import chatgpt ~/Downloads/chatgpt-export.zip --me Ana        # the zip as downloaded")
    .example("cairn import claude ~/exports/claude/conversations.json --me Ana")
    .example("cairn import chatgpt ~/exports/chatgpt/                              # conversations-000.json, -001.json, …")
    .option("--me <name>", "Your name as the speaker of your messages (default User)")
    .option("--assistant-name <name>", "The assistant's name as a speaker (default ChatGPT / Claude)")
    .option("--include-tools", "Also import tool calls and tool output (code runs, searches) as turns")
    .option("--domain <domain>", "Forced domain")
    .option("--json", "Print the summary as JSON")
    .action(async (format: string, paths: string[], o: ImportCliOptions) => {
      // Write-only: the import holds no recall index (a running server follows it through the change feed).
      const memory = await openMemoryForRuntime(parseConfig(io.env), { writeOnly: true });
      try {
        if (await importCommand(memory, format, paths, o, io)) state.failed = true;
      } finally {
        await memory.close();
      }
    });
}
