/**
 * Connector config files (issue 15): `<config_dir>/connectors/{kind}-{instance}.json`, mode 0600 or refused at load
 * (`insecure_file_mode`), secrets in their own 0600 files named by the config. File I/O is a port (`ConnectorFiles`,
 * implemented in `src/runtime/private-file.ts`), so this module stays runtime-free.
 */
import { MemoryError } from "../core/errors.ts";

/** The owner-only file port. */
export interface ConnectorFiles {
  /** Text of an owner-only file; undefined when absent; throws `insecure_file_mode` on a looser mode. */
  read(path: string, label: string): Promise<string | undefined>;
  /** Writes (creates or replaces) an owner-only file, parent directory 0700. */
  write(path: string, text: string): Promise<void>;
  /** Creates an owner-only file; throws when it exists. */
  createNew(path: string, text: string): Promise<void>;
}

const INSTANCE = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Connector kinds by family (SPEC §4.4 "profile-gated by family"; `CAIRN_CONNECTOR_FAMILIES`). */
export const FAMILY_OF: Readonly<Record<string, "code-hosting" | "ticketing">> = {
  github: "code-hosting", zendesk: "ticketing", freshdesk: "ticketing", jira: "ticketing", custom: "ticketing",
};

/** Validates an instance name (`default` when absent). */
export function instanceName(raw: unknown): string {
  if (raw === undefined || raw === null || raw === "") return "default";
  if (typeof raw !== "string" || !INSTANCE.test(raw)) {
    throw new MemoryError("invalid_request", "instance must be 1-64 characters of a-z, 0-9, '-' or '_', starting with a letter or digit", { field: "instance" });
  }
  return raw;
}

/** `<config_dir>/connectors/{kind}-{instance}.json`. */
export function configPath(configDir: string, kind: string, instance: string): string {
  return `${configDir}/connectors/${kind}-${instance}.json`;
}

/** The instance a `--config PATH` names: `{kind}-{instance}.json`, else the file's `instance` field, else `default`. */
export function instanceFromPath(path: string, kind: string, config: Record<string, unknown>): string {
  const base = path.split(/[\\/]/).pop() ?? "";
  const m = new RegExp(`^${kind}-(.+)\\.json$`).exec(base);
  return instanceName(m ? m[1] : config.instance);
}

/** Loads and parses a connector config; `not_found` when absent, `insecure_file_mode` when not 0600. */
export async function loadConfig(files: ConnectorFiles, path: string): Promise<Record<string, unknown>> {
  const text = await files.read(path, "connector config");
  if (text === undefined) throw new MemoryError("not_found", "No connector config at the expected path; run `cairn connect` first", undefined, 404);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new MemoryError("connector_config_invalid", "The connector config is not valid JSON", undefined, 400);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new MemoryError("connector_config_invalid", "The connector config must be a JSON object", undefined, 400);
  }
  return parsed as Record<string, unknown>;
}

/**
 * The secret files a config names: by convention every `*_file` member (`key_file`, `token_file`, `api_key_file`).
 * Registration reads each so a loose mode is refused when the operator connects, not first at sync.
 */
export function secretPaths(config: Record<string, unknown>): string[] {
  return Object.entries(config).filter(([k, v]) => k.endsWith("_file") && typeof v === "string" && v !== "").map(([, v]) => v as string);
}

/** The origins a config names (`api_base_url`, `base_url`): the only hosts its sync may contact. */
export function configOrigins(config: Record<string, unknown>, kind: string): string[] {
  const out: string[] = [];
  for (const k of ["api_base_url", "base_url"]) {
    const v = config[k];
    if (typeof v !== "string" || !v) continue;
    try {
      out.push(new URL(v).origin);
    } catch {
      throw new MemoryError("connector_config_invalid", `The connector config's ${k} is not a URL`, { field: k }, 400);
    }
  }
  if (kind === "github" && !out.length) out.push("https://api.github.com");
  return out;
}
