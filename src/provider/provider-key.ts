/**
 * Reads the provider lane's key at boot (issue 17): `CAIRN_PROVIDER_KEY_FILE`
 * must be owner-only (0600 or stricter) and non-empty, or boot is refused
 * with a message naming the variable, never the path (SPEC §7).
 */
import { readOwnerOnly, type ReadSecretFile } from "../auth/load-credentials.ts";
import type { ProviderConfig } from "../config/provider-config.ts";
import { ConfigError } from "../config/read-var.ts";

/** The key text, or undefined when the lane is off. */
export async function loadProviderKey(cfg: ProviderConfig | undefined, read: ReadSecretFile | undefined): Promise<string | undefined> {
  if (!cfg) return undefined;
  if (!read) throw new ConfigError("CAIRN_PROVIDER_KEY_FILE is configured but this runtime cannot read files");
  return await readOwnerOnly(read, "CAIRN_PROVIDER_KEY_FILE", cfg.keyFile);
}
