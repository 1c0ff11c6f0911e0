/**
 * The case-governance part of the configuration (SPEC §4.11, §6): the
 * re-ask window and the shared bridge config files of the channel kinds.
 * A bridge file's kind is the segment of its file name that names one of
 * the three kinds (`bridge.signal.json`, `telegram-bridge.json`); a name
 * with none or several refuses boot. The files themselves are read (and
 * their owner-only mode checked) when the memory opens.
 */
import { ConfigError, readInt, readString } from "./read-var.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** Channel kinds a bridge file name may select. */
const KINDS = ["signal", "telegram", "whatsapp"];

/** Workflow settings. */
export interface WorkflowConfig {
  /** `CAIRN_REASK_WINDOW_DAYS` (default 14): a new case of a subject closed this recently files a merge suggestion. */
  reaskWindowDays: number;
  /** `CAIRN_CHANNEL_BRIDGE_CONFIG`: shared bridge config files by kind (comma-separated paths). */
  bridgeConfigFiles: Readonly<Record<string, string>>;
}

/** The kind a bridge config path selects, from its file name segments. */
export function bridgeKindOf(path: string): string | undefined {
  const name = path.split(/[\\/]/).pop() ?? "";
  const hits = name.toLowerCase().split(/[._-]/).filter((s) => KINDS.includes(s));
  return hits.length === 1 ? hits[0] : undefined;
}

/** Parses the workflow settings. */
export function parseWorkflowConfig(env: Env): { workflow: WorkflowConfig } {
  const files: Record<string, string> = {};
  for (const p of (readString(env, "CAIRN_CHANNEL_BRIDGE_CONFIG") ?? "").split(",").map((s) => s.trim()).filter(Boolean)) {
    const kind = bridgeKindOf(p);
    if (!kind) throw new ConfigError("CAIRN_CHANNEL_BRIDGE_CONFIG: each file name must carry exactly one kind segment (signal, telegram or whatsapp)");
    if (files[kind]) throw new ConfigError(`CAIRN_CHANNEL_BRIDGE_CONFIG names two files for the kind ${kind}`);
    files[kind] = p;
  }
  return { workflow: { reaskWindowDays: readInt(env, "CAIRN_REASK_WINDOW_DAYS", 14, 1, 3650), bridgeConfigFiles: files } };
}
