/**
 * Connector settings (issue 15; SPEC §4.4, §8): where connector configs live (`<config_dir>/connectors/`) and which
 * connector families may be registered (`CAIRN_CONNECTOR_FAMILIES`, comma-separated `code-hosting`, `ticketing`;
 * default both). Loopback vendors (tests, local fakes) need `CAIRN_OUTBOUND_ALLOW_LOOPBACK=1`, shared with webhooks.
 */
import { ConfigError, readString } from "./read-var.ts";

/** Connector settings. */
export interface ConnectorSettings {
  /** `<config_dir>` (connector configs are under `<config_dir>/connectors/`). */
  configDir: string;
  /** Families `POST /connectors/register` and `cairn connect` accept. */
  families: readonly string[];
}

const FAMILIES = ["code-hosting", "ticketing"];

/** Parses the connector settings. */
export function parseConnectorConfig(env: Readonly<Record<string, string | undefined>>, configDir: string): { connectors: ConnectorSettings } {
  const raw = readString(env, "CAIRN_CONNECTOR_FAMILIES");
  const families = raw === undefined ? FAMILIES : raw.split(",").map((s) => s.trim()).filter(Boolean);
  for (const f of families) {
    if (!FAMILIES.includes(f)) throw new ConfigError(`CAIRN_CONNECTOR_FAMILIES: unknown family '${f}' (known: ${FAMILIES.join(", ")})`);
  }
  return { connectors: { configDir, families } };
}
