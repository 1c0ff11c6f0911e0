/**
 * The `cairn` commands (SPEC §4.12), registered on a cac instance by `runCli`: thin bindings over the composition
 * root. Output goes to the caller's sinks (`CliIo`), so the same commands run in a process (cli.ts) or in-process.
 */
import type { CAC } from "cac";
import { ConfigError } from "../config/read-var.ts";
import { parseConfig } from "../config/parse-config.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import type { Memory } from "../memory.ts";
import { runMcpStdio } from "../mcp/stdio.ts";
import { currentDir, exitProcess, onShutdown, readTextFile } from "../runtime/platform.ts";
import { bootServer, openMemoryForRuntime, openMigrationForRuntime } from "../server.ts";
import { evalCommand, type EvalOptions } from "./eval.ts";
import { checkConsistencyCommand, resolveCommand, undoResolveCommand, verifyCertificateCommand, type CommandOutcome } from "./governance-commands.ts";
import { ingestDir } from "./ingest-dir.ts";
import { PARCEL_REFUSALS, parcelExportCommand, parcelImportCommand, parcelLedgerCommand } from "./parcel-commands.ts";
import type { CliIo, CliState } from "./cli-io.ts";
import { explainLines, queryLines } from "./query.ts";
import { reviewCommand } from "./review-commands.ts";
import { statusLines } from "./status.ts";
import { type UmpCliOptions, umpExport, umpImport, umpKeygen, umpRevoke, umpToken } from "./ump-commands.ts";
import { registerVaultCommands } from "./vault-cli.ts";
import { workflowNoteCommand } from "./workflow-commands.ts";
import { kbBuildCommand } from "./kb-commands.ts";
import { migrateMultiDbCommand } from "./migrate-commands.ts";
import { connectCommand, connectorStatusCommand, syncCommand, type ConnectOptions } from "./connector-commands.ts";

export type { CliIo, CliState } from "./cli-io.ts";

/** Registers every command on `cli`. */
export function registerCommands(cli: CAC, io: CliIo, state: CliState): void {
  cli.command("serve", "Run the HTTP service (default 127.0.0.1:8765, libSQL file ./data/cairn.db)")
    // Issue 22 item 6: the port and the main settings are environment variables; say so where a user looks first.
    .usage(`serve

  Listens on BIND_ADDR:BIND_PORT (default 127.0.0.1:8765). Settings are environment variables:
    BIND_ADDR          address to bind (default 127.0.0.1; a public address needs BIND_PUBLIC=1 and a credential)
    BIND_PORT          port (default 8765)
    CAIRN_DB_PATH      libSQL file (default ./data/cairn.db); CAIRN_DB_URL for a sqld server
    AUTH_TOKEN_FILE    bearer token file (or CAIRN_JWT_SECRET_FILE / CAIRN_JWT_PUBLIC_KEY_FILE)
    CAIRN_WRITE_POSTURE  open (default) or review
    CAIRN_UMP_KEY_DIR  operator key directory (UMP signatures)
  The full list: docs/configuration.md.`)
    .action(async () => {
    const booted = await bootServer(io.env);
    io.out(`cairn ${VERSION} listening on http://${booted.config.bindAddr}:${booted.server.port} (db ${booted.config.dbUrl ?? booted.config.dbPath}, boot ${booted.bootMs} ms)`);
    onShutdown(() => {
      booted.close().then(() => exitProcess(0), () => exitProcess(1));
    });
  });

  cli.command("status", "Print store health: capacity, durability and counts (chunks, entities, relations)").option("--json", "Print JSON").action(async (o: { json?: boolean }) => {
    const memory = await openMemoryForRuntime(parseConfig(io.env));
    try {
      for (const l of await statusLines(memory, Boolean(o.json))) io.out(l);
    } finally {
      await memory.close();
    }
  });

  cli.command("ingest-dir <dir>", "Ingest every markdown file under a directory").option("--domain <domain>", "Forced domain").action(
    async (dir: string, o: { domain?: string }) => {
      const memory = await openMemoryForRuntime(parseConfig(io.env));
      try {
        const s = await ingestDir(memory, dir, { domain: o.domain }, io);
        if (s.failed > 0) state.failed = true;
      } finally {
        await memory.close();
      }
    },
  );

  // --- governance (issue 6) ---
  async function withMemory(fn: (m: Memory) => Promise<CommandOutcome>): Promise<void> {
    const memory = await openMemoryForRuntime(parseConfig(io.env));
    try {
      const out = await fn(memory);
      for (const l of out.lines) io.out(l);
      if (!out.ok) state.failed = true;
    } finally {
      await memory.close();
    }
  }
  const linkId = (raw: unknown): number => {
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`link id must be a positive integer, got '${String(raw)}'`);
    return n;
  };

  cli.command("resolve [id]", "Propose supersedes/contradicts links and list those awaiting approval; with an id, approve that link")
    .option("--domain <domain>", "Only this domain").option("--threshold <n>", "Near-duplicate similarity (default 0.9)").option("--json", "Print JSON")
    .action((id: string | undefined, o: { domain?: string; threshold?: string; json?: boolean }) =>
      withMemory((m) => resolveCommand(m, id === undefined ? undefined : linkId(id), { domain: o.domain, threshold: o.threshold === undefined ? undefined : Number(o.threshold), json: o.json })));

  cli.command("undo-resolve <id>", "Reverse an approved consolidation link (or dismiss a proposed one)").option("--json", "Print JSON")
    .action((id: string, o: { json?: boolean }) => withMemory((m) => undoResolveCommand(m, linkId(id), o.json)));

  // --- review (issue 19): the same service as /proposals and the web client ---
  const positiveId = (raw: unknown, what: string): number => {
    const n = Number(raw);
    if (!Number.isSafeInteger(n) || n < 1) throw new ConfigError(`${what} must be a positive integer, got '${String(raw)}'`);
    return n;
  };
  cli.command("review <action> [id]", "Review proposals before they become memory: list | show | approve | reject")
    .option("--status <status>", "list: pending (default), approved or rejected").option("--digest <digest>", "approve: the content_digest list/show printed")
    .option("--supersedes <id>", "approve: the memory this one replaces").option("--json", "Print JSON")
    .action((action: string, id: string | undefined, o: { status?: string; digest?: string; supersedes?: string; json?: boolean }) =>
      withMemory((m) => reviewCommand(m, action, id === undefined ? undefined : positiveId(id, "proposal id"), {
        status: o.status, digest: o.digest === undefined ? undefined : String(o.digest), supersedes: o.supersedes === undefined ? undefined : positiveId(o.supersedes, "supersedes"), json: o.json,
      })));

  cli.command("check-consistency", "Verify the audit chain and the store's invariants; exits 1 when any fails").option("--json", "Print JSON")
    .action((o: { json?: boolean }) => withMemory((m) => checkConsistencyCommand(m, o.json)));

  // --- scale-out (issue 20): offline, refused while a server runs on the store ---
  cli.command("migrate <what>", "Move a single-file store's domains into one database each, then check consistency: multi-db")
    .option("--domain <domain>", "Move only this domain").option("--dry-run", "List what would move; change nothing").option("--json", "Print JSON")
    .action(async (what: string, o: { domain?: string; dryRun?: boolean; json?: boolean }) => {
      if (what !== "multi-db") throw new ConfigError(`unknown migration '${what}' (only: multi-db)`);
      const m = await openMigrationForRuntime(parseConfig(io.env));
      try {
        const out = await migrateMultiDbCommand(m, { domain: o.domain === undefined ? undefined : String(o.domain), dryRun: o.dryRun, json: o.json });
        for (const l of out.lines) io.out(l);
        if (!out.ok) state.failed = true;
      } finally {
        await m.close();
      }
    });

  cli.command("verify-certificate <file>", "Verify a deletion certificate against the audit chain (local store, or --url of a running server)")
    .option("--url <url>", "Base URL of a running server").option("--token <token>", "Bearer token for --url")
    .option("--subject-email <email>", "Also check the certificate is about this email").option("--subject-owner <owner>", "… this owner")
    .option("--subject-match <text>", "… this match text").option("--json", "Print JSON")
    .action(async (file: string, o: { url?: string; token?: string; subjectEmail?: string; subjectOwner?: string; subjectMatch?: string; json?: boolean }) => {
      const text = await readTextFile(file);
      const subject = o.subjectEmail ?? o.subjectOwner ?? o.subjectMatch
        ? { ...(o.subjectOwner ? { owner: o.subjectOwner } : {}), ...(o.subjectEmail ? { email: o.subjectEmail } : {}), ...(o.subjectMatch ? { match: o.subjectMatch } : {}) }
        : undefined;
      if (o.url !== undefined) {
        const out = await verifyCertificateCommand(text, { url: o.url, token: o.token, subject, json: o.json });
        for (const l of out.lines) io.out(l);
        if (!out.ok) state.failed = true;
        return;
      }
      await withMemory((memory) => verifyCertificateCommand(text, { memory, subject, json: o.json }));
    });

  cli.command("query <text>", "Recall from the store (same pipeline as POST /recall)")
    .option("--k <n>", "Number of hits (1-100)", { default: 5 })
    .option("--json", "Print the JSON reply")
    .action(async (text: string, o: { k: number; json?: boolean }) => {
      const memory = await openMemoryForRuntime(parseConfig(io.env));
      try {
        for (const l of await queryLines(memory, text, Number(o.k), Boolean(o.json))) io.out(l);
      } finally {
        await memory.close();
      }
    });

  cli.command("explain <text>", "Recall with each hit's legs, ranks, scores and graph hops")
    .option("--k <n>", "Number of hits (1-100)", { default: 5 })
    .action(async (text: string, o: { k: number }) => {
      const memory = await openMemoryForRuntime(parseConfig(io.env));
      try {
        for (const l of await explainLines(memory, text, Number(o.k))) io.out(l);
      } finally {
        await memory.close();
      }
    });

  cli.command("eval <path>", "Score recall on a BEIR directory, a markdown vault or a LoCoMo JSON file (recall@5, recall@10, nDCG@10, MRR), beside lexical-only and FTS5")
    .option("--floor <metric=value>", "Fail (exit 1) under a floor: r5=, r10=, mrr= or ndcg=; repeatable")
    .option("--mode <mode>", "fused (the served pipeline), lexical or vector", { default: "fused" })
    .option("--compare <runs>", "Runs beside it on the same stores: comma list of lexical, vector, fused, fts5 (SQLite FTS5 over the same chunks), or none", { default: "lexical,fts5" })
    .option("--restart", "Also run the queries after closing and reopening each store on the same database")
    .option("--door <door>", "BEIR directories: batch (POST /ingest/batch, default) or memory (POST /ingest/memory)")
    .option("--split <name>", "BEIR qrels split (default: test when present, else train)")
    .option("--params <json>", "Tuning: recall parameter overrides as JSON, e.g. '{\"speakerNames\":\"first\"}'")
    .option("--turn-only", "LoCoMo: index each turn without its previous turn as context")
    .option("--json", "Print JSON")
    .action(async (path: string, o: EvalOptions) => {
      const out = await evalCommand(path, o);
      for (const l of out.lines) io.out(l);
      if (!out.ok) state.failed = true;
    });

  // --- ump (issue 7): keys, tokens, the file binding, the vault and MCP ---
  cli.command("ump <action> [arg]", "UMP 1.0 keys, tokens and files: keygen | token | revoke | export | import")
    .option("--verbs <list>", "token: comma list of read, write, derive, export", { default: "read" })
    .option("--scope <key=value>", "token: scope restriction (owner, project, agent, visibility); repeatable")
    .option("--ttl <ttl>", "token: lifetime such as 30m, 24h, 7d", { default: "24h" })
    .option("--aud <did>", "token: the peer DID it is minted for (its principal)")
    .option("--format <format>", "export: md or ump", { default: "ump" })
    .option("--out <file>", "export: output file (stdout when absent)")
    .option("--raw", "export: a raw backup without the read seam (PII and stripped text kept; audited as export_raw)")
    .action(async (action: string, arg: string | undefined, o: UmpCliOptions) => {
      const config = parseConfig(io.env);
      if (action === "keygen") {
        for (const l of await umpKeygen(config)) io.out(l);
        return;
      }
      if (!["token", "revoke", "export", "import"].includes(action)) {
        throw new MemoryError("invalid_request", `Unknown ump action "${action}"; use keygen, token, revoke, export or import`);
      }
      const memory = await openMemoryForRuntime(config);
      try {
        if (action === "token") for (const l of await umpToken(config, memory, o)) io.out(l);
        else if (action === "revoke") for (const l of await umpRevoke(memory, arg)) io.out(l);
        else if (action === "export") {
          const r = await umpExport(memory, o);
          for (const w of r.warnings) io.err(w);
          for (const l of r.lines) io.out(l);
          if (r.failed) state.failed = true;
        }
        else {
          const r = await umpImport(memory, arg);
          for (const l of r.lines) io.out(l);
          if (r.rejected > 0) state.failed = true;
        }
      } finally {
        await memory.close();
      }
    });

  // --- parcels (issue 14) ---
  cli.command("parcel <action>", "Signed parcels between machines: export | import | ledger")
    .option("--domain <domain>", "export: the domain to ship; import: target domain (default the parcel's); ledger: only this domain")
    .option("--since <ts>", "export: only rows created at or after this ISO-8601 time")
    .option("--out <file>", "export: where to write the parcel")
    .option("--file <file>", "import: the parcel file")
    .option("--expected-signer <did>", "import: the did:key the parcel must be signed by")
    .option("--json", "Print JSON")
    .action((action: string, o: { domain?: string; since?: string; out?: string; file?: string; expectedSigner?: string; json?: boolean }) => {
      if (action === "export") return withMemory((m) => parcelExportCommand(m, o));
      if (action === "import") {
        return withMemory((m) => parcelImportCommand(m, o)).catch((e: unknown) => {
          if (isMemoryError(e) && PARCEL_REFUSALS.has(e.code)) state.usage = true;
          throw e;
        });
      }
      if (action === "ledger") return withMemory((m) => parcelLedgerCommand(m, o));
      throw new MemoryError("invalid_request", `Unknown parcel action "${action}"; use export, import or ledger`);
    });

  registerVaultCommands(cli, io, state);

  cli.command("mcp", "Run the MCP server over stdio (tools ump.*, resources ump://{project}/{id})")
    .option("--token <token>", "Act as this capability token instead of the local operator")
    .option("--tool-names <style>", "dotted (ump.remember, the spec's names) or underscore (ump_remember, for model APIs limited to [A-Za-z0-9_-])", { default: "dotted" })
    .action(async (o: { token?: string; toolNames?: string }) => {
      if (o.toolNames !== "dotted" && o.toolNames !== "underscore") throw new MemoryError("invalid_request", "--tool-names must be dotted or underscore");
      const memory = await openMemoryForRuntime(parseConfig(io.env));
      try {
        await runMcpStdio(memory, { token: o.token, toolNames: o.toolNames });
      } finally {
        await memory.close();
      }
    });

  // --- workflow (issue 16) ---
  cli.command("workflow <action> <run> <text>", "Case governance: note (an audited operator note on a governed run)")
    .option("--reask", "Also record a re-ask (case/reask)").option("--json", "Print JSON")
    .action((action: string, run: string, text: string, o: { reask?: boolean; json?: boolean }) => {
      if (action !== "note") throw new ConfigError(`unknown workflow action '${action}' (only: note)`);
      return withMemory((m) => workflowNoteCommand(m, String(run), String(text), o));
    });

  // --- knowledge base (issue 17) ---
  cli.command("kb <action>", "Knowledge base: build (the static KCS site from a domain's articles)")
    .option("--domain <domain>", "The domain whose KCS articles are published")
    .option("--out <dir>", "Output directory (empty, or a previous kb build)")
    .option("--base-url <url>", "Absolute URL the site is served from (sitemap.xml and canonical links)")
    .option("--with-case-status", "Also write the static case status pages (status/<ref>.html)")
    .option("--locales <list>", "Comma-separated locales to publish (default: every locale present)")
    .option("--json", "Print the build report as JSON")
    .action((action: string, o: { domain?: string; out?: string; baseUrl?: string; withCaseStatus?: boolean; locales?: string; json?: boolean }) => {
      if (action !== "build") throw new ConfigError(`unknown kb action '${action}' (only: build)`);
      return withMemory((m) => kbBuildCommand(m, o));
    });

  // --- connectors (issue 15): operator-initiated; `cairn sync` is the cron crank (src/connectors/README.md) ---
  cli.command("connect <kind>", "Register a connector: github | zendesk | freshdesk | jira | custom")
    .option("--instance <name>", "Instance name (default: default)").option("--app-id <id>", "GitHub App id").option("--install-id <id>", "GitHub App installation id")
    .option("--key-file <path>", "GitHub App private key (PEM, mode 0600)").option("--repo <owner/name>", "Repository (repeatable)")
    .option("--api-base-url <url>", "GitHub API base (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3)")
    .option("--base-url <url>", "Vendor API base URL (ticketing kinds)").option("--from <file>", "JSON file with the vendor config").option("--json", "Print JSON")
    .action((kind: string, o: ConnectOptions) => withMemory((m) => connectCommand(m, String(kind), o, { cwd: currentDir(), readText: readTextFile })));
  cli.command("sync <kind>", "Run one sync of a connector instance (progress on a TTY, one summary line; exit 1 on failure)")
    .option("--instance <name>", "Instance name (default: default)").option("--config <path>", "Config file ({kind}-{instance}.json, mode 0600)").option("--json", "Print JSON")
    .action((kind: string, o: { instance?: string; config?: string; json?: boolean }) => {
      if (o.instance && o.config) throw new ConfigError("use either --config or --instance, not both");
      return withMemory((m) => syncCommand(m, String(kind), o, currentDir()));
    });
  cli.command("connector-status", "List registered connectors with state and last sync").option("--json", "Print JSON")
    .action((o: { json?: boolean }) => withMemory((m) => connectorStatusCommand(m, o)));
}
