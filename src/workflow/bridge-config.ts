/**
 * Reads the shared bridge config files at boot (SPEC §4.11 mount evidence,
 * §5 item 10: the shared bridge config must be owner-only, or it is refused
 * at load) and keeps only the SHA-256 of each file's bytes, by kind.
 */
import type { ReadSecretFile } from "../auth/load-credentials.ts";
import { ConfigError } from "../config/read-var.ts";
import { sha256Hex } from "./emit-event.ts";

/** SHA-256 hex of each kind's bridge config; refuses boot on a missing, unreadable or group/world-accessible file. */
export async function loadBridgeDigests(files: Readonly<Record<string, string>>, read: ReadSecretFile | undefined): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const entries = Object.entries(files);
  if (entries.length > 0 && !read) throw new ConfigError("Bridge config files are configured but this runtime cannot read files");
  for (const [kind, path] of entries) {
    let file: { text: string; mode: number };
    try {
      file = await read!(path);
    } catch {
      // SPEC §7: messages carry no paths.
      throw new ConfigError(`CAIRN_CHANNEL_BRIDGE_CONFIG: the ${kind} bridge config cannot be read`);
    }
    if ((file.mode & 0o077) !== 0) throw new ConfigError(`CAIRN_CHANNEL_BRIDGE_CONFIG: the ${kind} bridge config must be owner-only (chmod 600)`);
    out.set(kind, await sha256Hex(file.text));
  }
  return out;
}
