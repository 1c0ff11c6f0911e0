/**
 * Parses and validates the environment once at boot (STYLE rule 4) into a
 * fully-defaulted `Config`. Refuses boot on a wrong-typed variable, a
 * malformed port (never a random port) or a public bind without opt-in
 * (SPEC §1 Runtime rules).
 */
import type { Config } from "./config.ts";
import { parseSkipPatterns } from "../hygiene/skip-patterns.ts";
import { parseSecurityConfig } from "./security-config.ts";
import { parseWorkflowConfig } from "./workflow-config.ts";
import { parseProviderConfig } from "./provider-config.ts";
import { parseConnectorConfig } from "./connector-config.ts";
import { ConfigError, readBool, readEnum, readInt, readString } from "./read-var.ts";

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/;

/** True when the address is a loopback interface. */
export function isLoopbackAddr(addr: string): boolean {
  return LOOPBACK.test(addr);
}

/** `<config_dir>`: `CAIRN_CONFIG_DIR`, else `$XDG_CONFIG_HOME/cairn`, else `$HOME/.config/cairn`, else `./.cairn`. */
export function configDir(env: Readonly<Record<string, string | undefined>>): string {
  const explicit = readString(env, "CAIRN_CONFIG_DIR");
  if (explicit) return explicit.replace(/\/+$/, "");
  const xdg = readString(env, "XDG_CONFIG_HOME");
  if (xdg) return `${xdg.replace(/\/+$/, "")}/cairn`;
  const home = readString(env, "HOME") ?? readString(env, "USERPROFILE");
  return home ? `${home.replace(/\/+$/, "")}/.config/cairn` : "./.cairn";
}

/** Parses the environment into a Config or throws ConfigError with a one-line message. */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const bindAddr = readString(env, "BIND_ADDR", "127.0.0.1");
  if (!/^[0-9A-Za-z.:-]+$/.test(bindAddr)) throw new ConfigError(`BIND_ADDR must be an IP address or host name, got '${bindAddr}'`);
  // SPEC §1: a malformed port refuses boot; port 0 would bind a random port, so it is refused too.
  const bindPort = readInt(env, "BIND_PORT", 8765, 1, 65535);
  const bindPublic = readBool(env, "BIND_PUBLIC", false);
  if (!isLoopbackAddr(bindAddr) && !bindPublic) {
    throw new ConfigError(`BIND_ADDR ${bindAddr} is not loopback: set BIND_PUBLIC=1 to bind a public interface`);
  }
  const dbUrl = readString(env, "CAIRN_DB_URL");
  if (dbUrl !== undefined && !/^(libsql|https?|wss?|file):/.test(dbUrl)) {
    throw new ConfigError(`CAIRN_DB_URL must be a libsql:, http(s):, ws(s): or file: URL, got '${dbUrl}'`);
  }
  const multiDb = readBool(env, "CAIRN_MULTI_DB", false);
  // Issue 20: per-domain databases are files beside the global one. On a libSQL server they would be sqld namespaces,
  // which need sqld's --enable-namespaces plus its separate admin API to create and delete them and a per-namespace
  // host name for the client: not simple enough to run unsupervised (docs/scale-out.md "One database per domain"), so refused.
  if (multiDb && dbUrl !== undefined) {
    throw new ConfigError("CAIRN_MULTI_DB=true works with the embedded database file (CAIRN_DB_PATH) only; unset CAIRN_DB_URL or set CAIRN_MULTI_DB=false (one database on a libSQL server)");
  }
  const nodeId = readString(env, "CAIRN_NODE_ID");
  if (nodeId !== undefined && !/^[A-Za-z0-9._-]{1,64}$/.test(nodeId)) {
    throw new ConfigError(`CAIRN_NODE_ID must be 1 to 64 letters, digits, '.', '_' or '-', got '${nodeId}'`);
  }
  const embedKind = env.CAIRN_EMBED_KIND?.trim();
  if ((embedKind === "model2vec" || embedKind === "onnx") && !readString(env, "CAIRN_EMBED_MODEL_DIR")) {
    throw new ConfigError(`CAIRN_EMBED_KIND=${embedKind} needs CAIRN_EMBED_MODEL_DIR (a directory with the model files)`);
  }
  return {
    bindAddr,
    bindPort,
    bindPublic,
    dbPath: readString(env, "CAIRN_DB_PATH", "./data/cairn.db"),
    dbUrl,
    dbAuthToken: readString(env, "CAIRN_DB_AUTH_TOKEN"),
    durability: readEnum(env, "CAIRN_DURABILITY", ["full", "normal"] as const, "full"),
    writePosture: readEnum(env, "CAIRN_WRITE_POSTURE", ["open", "review"] as const, "open"),
    maxDocs: readInt(env, "CAIRN_MAX_DOCS", 50_000, 1, 100_000_000),
    maxDbMib: readInt(env, "CAIRN_MAX_DB_MIB", 2048, 1, 10_000_000),
    maxRssMib: readInt(env, "CAIRN_MAX_RSS_MIB", 512, 1, 10_000_000),
    multiDb,
    nodeId,
    changePollMs: readInt(env, "CAIRN_CHANGE_POLL_MS", 250, 0, 60_000),
    nodeCache: nodeCachePath(env, nodeId),
    requestDeadlineMs: readInt(env, "CAIRN_REQUEST_DEADLINE_MS", 30_000, 1, 3_600_000),
    injectionPolicy: readEnum(env, "INJECTION_POLICY", ["quarantine", "reject", "off"] as const, "quarantine"),
    ingestSkipPatterns: parseSkipPatterns(env.CAIRN_INGEST_SKIP_PATTERNS),
    recallGraphEnabled: readBool(env, "CAIRN_RECALL_GRAPH_ENABLED", true),
    recallBudgetMs: readInt(env, "CAIRN_RECALL_BUDGET_MS", 8_000, 1, 600_000),
    heapGrowingPercent: readInt(env, "CAIRN_HEAP_GROWING_PERCENT", 0, 0, 400),
    ingestWorkers: readInt(env, "CAIRN_INGEST_WORKERS", -1, -1, 16),
    embedKind: readEnum(env, "CAIRN_EMBED_KIND", ["static", "model2vec", "onnx", "none"] as const, "static"),
    embedModelDir: readString(env, "CAIRN_EMBED_MODEL_DIR"),
    rerankModelDir: readString(env, "CAIRN_RERANK_MODEL_DIR"),
    injectionClassifierDir: readString(env, "CAIRN_INJECTION_CLASSIFIER_DIR"),
    vectorIndex: readEnum(env, "CAIRN_VECTOR_INDEX", ["auto", "scan", "diskann"] as const, "auto"),
    vectorScanMax: readInt(env, "CAIRN_VECTOR_SCAN_MAX", 200_000, 1, 100_000_000),
    nodeVectorRows: readEnum(env, "CAIRN_NODE_VECTOR_ROWS", ["float32", "int8"] as const, "float32"),
    umpKeyDir: readString(env, "CAIRN_UMP_KEY_DIR") ?? `${configDir(env)}/ump`,
    ...parseSecurityConfig(env, { loopback: isLoopbackAddr(bindAddr), bindPublic }),
    ...parseWorkflowConfig(env),
    ...parseProviderConfig(env),
    ...parseConnectorConfig(env, configDir(env)),
    raw: { ...env },
  };
}

// Issue 20: a server node's boot cache (docs/scale-out.md "Several nodes over one libSQL server"): a file in the node's data
// directory, beside CAIRN_DB_PATH and named after the node when CAIRN_NODE_ID is set; `off` keeps no cache.
function nodeCachePath(env: Record<string, string | undefined>, nodeId: string | undefined): string | undefined {
  const set = readString(env, "CAIRN_NODE_CACHE");
  if (set === "off") return undefined;
  if (set !== undefined) return set;
  const db = readString(env, "CAIRN_DB_PATH", "./data/cairn.db");
  return nodeId === undefined ? `${db}.node-cache` : `${db}.${nodeId}.node-cache`;
}
