/**
 * `cairn connect <kind>`, `cairn sync <kind> [--config PATH | --instance NAME]`, `cairn connector-status [--json]`
 * (SPEC §4.12; issue 15): thin bindings over `memory.connectors`, the service `POST /connectors/register` and
 * `GET /connectors` call. `sync` shows a progress line on a TTY and one summary line either way; a sync that ends
 * in `state: error` exits 1.
 */
import type { Memory } from "../memory.ts";
import { stderrIsTTY, writeStderr } from "../runtime/platform.ts";
import type { CommandOutcome } from "./governance-commands.ts";
import type { RegisterConnectorInput } from "../connectors/connector-schema.ts";
import { MemoryError } from "../core/errors.ts";

/** Options of `cairn connect`. */
export interface ConnectOptions {
  instance?: string;
  appId?: string | number;
  installId?: string | number;
  keyFile?: string;
  repo?: string | string[];
  apiBaseUrl?: string;
  baseUrl?: string;
  /** A JSON file whose object is the vendor config (other kinds; merged under the flags). */
  from?: string;
  json?: boolean;
}

const abs = (p: string, cwd: string) => (p.startsWith("/") || /^[A-Za-z]:[\\/]/.test(p) ? p : `${cwd.replace(/\/$/, "")}/${p}`);

/** `cairn connect <kind>`: writes the 0600 config and registers the instance. */
export async function connectCommand(
  memory: Memory, kind: string, o: ConnectOptions, io: { cwd: string; readText(path: string): Promise<string> },
): Promise<CommandOutcome> {
  let config: Record<string, unknown> = {};
  if (o.from) {
    try {
      config = JSON.parse(await io.readText(abs(o.from, io.cwd)));
    } catch {
      throw new MemoryError("invalid_request", "--from must name a readable JSON file");
    }
  }
  if (kind === "github") {
    if (o.apiBaseUrl) config.api_base_url = o.apiBaseUrl;
    if (o.appId !== undefined) config.app_id = String(o.appId);
    if (o.installId !== undefined) config.installation_id = String(o.installId);
    if (o.keyFile) config.key_file = abs(o.keyFile, io.cwd);
    if (o.repo !== undefined) config.repos = (Array.isArray(o.repo) ? o.repo : [o.repo]).map(String);
  } else if (o.baseUrl) config.base_url = o.baseUrl;
  // The kind is the user's word: the service refuses an unknown one (connector_kind_unknown).
  const out = await memory.connectors.register({ kind: kind as RegisterConnectorInput["kind"], instance: o.instance, config });
  if (o.json) return { ok: true, lines: [JSON.stringify(out)] };
  const c = out.connector;
  return { ok: true, lines: [`${c.kind}/${c.instance}: ${out.created ? "registered" : "updated"} (id ${c.id}); config ${out.config_path}`] };
}

/** `cairn sync <kind>`: one operator-initiated sync. */
export async function syncCommand(memory: Memory, kind: string, o: { instance?: string; config?: string; json?: boolean }, cwd: string): Promise<CommandOutcome> {
  const tty = stderrIsTTY();
  const s = await memory.connectors.sync({
    kind, instance: o.instance, configPath: o.config ? abs(o.config, cwd) : undefined,
    onPage: tty ? (p) => writeStderr(`\rsync ${kind}: page ${p.pages}, ${p.records} records\x1b[K`) : undefined,
  });
  if (tty) writeStderr("\r\x1b[K");
  if (o.json) return { ok: s.state === "idle", lines: [JSON.stringify(s)] };
  const what = `${s.records} records in ${s.pages} pages (${s.created} new, ${s.revised} revised, ${s.unchanged} unchanged, ${s.deleted} deleted, ${s.swept} swept`
    + (s.cases_applied + s.cases_unchanged + s.cases_refused ? `; cases ${s.cases_applied} applied, ${s.cases_unchanged} unchanged, ${s.cases_refused} refused` : "")
    + (s.records_refused ? `; ${s.records_refused} records refused (${(s.refused ?? []).map((r) => `${r.path}: ${r.field} ${r.reason}`).join(", ")})` : "") + ")";
  const line = `${s.kind}/${s.instance}: ${s.state}, ${what} in ${s.seconds.toFixed(1)} s`;
  return s.state === "idle" ? { ok: true, lines: [line] } : { ok: false, lines: [`${line}: ${s.error}`] };
}

/** `cairn connector-status`: the registry. */
export async function connectorStatusCommand(memory: Memory, o: { json?: boolean }): Promise<CommandOutcome> {
  const rows = await memory.connectors.list();
  if (o.json) return { ok: true, lines: [JSON.stringify({ connectors: rows })] };
  if (!rows.length) return { ok: true, lines: ["no connectors registered (see cairn connect --help)"] };
  return {
    ok: true,
    lines: rows.map((r) => `${r.id}\t${r.kind}/${r.instance}\t${r.state}\tlast sync ${r.last_sync_at ?? "never"}\t${r.records_total} records${r.last_error ? `\t${r.last_error}` : ""}`),
  };
}
