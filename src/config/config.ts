/**
 * The documented public configuration of Cairn (SPEC §1 Runtime rules, §8),
 * expanded once at boot into this fully-defaulted shape by `parseConfig`.
 * No other module reads the environment (STYLE rule 4).
 */
import type { ConnectorSettings } from "./connector-config.ts";
import type { AuthConfig, OutboundSettings, RateLimitConfig, WatchdogConfig } from "./security-config.ts";
import type { InjectionPolicy } from "../hygiene/injection-policy.ts";
import type { WorkflowConfig } from "./workflow-config.ts";
import type { ProviderConfig } from "./provider-config.ts";

/** Write posture (SPEC §1). */
export type WritePosture = "open" | "review";

/** Injection policy (SPEC §1): `quarantine` (default), `reject` or `off`; see src/hygiene/injection-policy.ts. */
export type { InjectionPolicy };

/** Fully-defaulted configuration passed down from boot. */
export interface Config {
  /** Bind address (`BIND_ADDR`, default 127.0.0.1). */
  bindAddr: string;
  /** Bind port (`BIND_PORT`, default 8765). */
  bindPort: number;
  /** Public bind opt-in (`BIND_PUBLIC=1`). */
  bindPublic: boolean;
  /** libSQL file path (`CAIRN_DB_PATH`, default ./data/cairn.db). */
  dbPath: string;
  /** Remote libSQL URL (`CAIRN_DB_URL`), overrides dbPath when set. */
  dbUrl?: string;
  /** Auth token for a remote libSQL server (`CAIRN_DB_AUTH_TOKEN`). */
  dbAuthToken?: string;
  /**
   * Commit durability of a local file (`CAIRN_DURABILITY`, issue 23 §5): `full` (default) syncs every commit,
   * so no acknowledged write is lost even to a power cut; `normal` syncs at checkpoints (a process crash loses
   * nothing, a power cut may lose the last acknowledged writes).
   */
  durability: "full" | "normal";
  /** Write posture (`CAIRN_WRITE_POSTURE`). */
  writePosture: WritePosture;
  /** Capacity envelope (SPEC §8 desktop envelope). */
  maxDocs: number;
  maxDbMib: number;
  maxRssMib: number;
  /** Multi-database mode (`CAIRN_MULTI_DB`, SPEC §2.5): one libSQL file per domain; embedded database only. */
  multiDb: boolean;
  /** This node's name on `/health/db` (`CAIRN_NODE_ID`; default host name and process id, set by the runtime). */
  nodeId?: string;
  /** Background change-feed poll in ms (`CAIRN_CHANGE_POLL_MS`, default 250; 0 = only before each recall). Issue 20. */
  changePollMs: number;
  /** A server node's boot cache file (`CAIRN_NODE_CACHE`; default beside `dbPath`; undefined = `off`). Used only with `dbUrl`. Issue 20. */
  nodeCache?: string;
  /** Request deadline in ms (SPEC §8: 30 s). */
  requestDeadlineMs: number;
  /** Deadline of `POST /domains/{name}/import` in ms (`CAIRN_IMPORT_DEADLINE_MS`, default 600 s; docs/limits.md). */
  importDeadlineMs: number;
  /** Bounds of a domain snapshot import once gunzipped (docs/limits.md "Snapshot import"). */
  snapshotLimits: { maxExpandedBytes: number; maxLines: number };
  /** What a write door does with a Quarantine verdict (`INJECTION_POLICY`, SPEC §1 Trust rules). */
  injectionPolicy: InjectionPolicy;
  /** Skip-rule prefixes for `/ingest/memory` (`CAIRN_INGEST_SKIP_PATTERNS`, SPEC §1 Input hygiene). */
  ingestSkipPatterns: string[];
  /** Process-wide graph-leg kill switch (`CAIRN_RECALL_GRAPH_ENABLED`, SPEC §1 step 6). */
  recallGraphEnabled: boolean;
  /** Recall search budget in ms (SPEC §8: 8 s). */
  recallBudgetMs: number;
  /** V8 old-generation growth after boot, percent (`CAIRN_HEAP_GROWING_PERCENT`, Node only; 0 = V8's default, the default). */
  heapGrowingPercent: number;
  /** Worker threads for a batch's screen and embedding (`CAIRN_INGEST_WORKERS`, Node only; -1 = cores − 1, at most 3; 0 = off). */
  ingestWorkers: number;
  /** Embedder kind (`CAIRN_EMBED_KIND`): static (default), model2vec, onnx or none. */
  embedKind: "static" | "model2vec" | "onnx" | "none";
  /**
   * Vector leg: `scan` (exact scan of the in-memory matrix), `diskann` (libSQL's `libsql_vector_idx`,
   * float8 neighbours), or `auto` — DiskANN on a remote libSQL server or above `vectorScanMax` vectors.
   */
  vectorIndex: "auto" | "scan" | "diskann";
  vectorScanMax: number;
  /**
   * A server node's vector matrix (`CAIRN_NODE_VECTOR_ROWS`, issue 20): `float32` (exact scores, 4 bytes a component)
   * or `int8` (a quarter of the memory, scores dequantised; every node quantises alike). The embedded default
   * already keeps int8 rows with exact scores read back from the local file.
   */
  nodeVectorRows: "float32" | "int8";
  /** Model directory for model2vec/onnx (`CAIRN_EMBED_MODEL_DIR`). */
  embedModelDir?: string;
  /** Optional ONNX cross-encoder directory for the rerank tier (`CAIRN_RERANK_MODEL_DIR`). */
  rerankModelDir?: string;
  /** Optional ONNX injection classifier directory (`CAIRN_INJECTION_CLASSIFIER_DIR`; SPEC §1 Trust rules, issue 26). */
  injectionClassifierDir?: string;
  /** Directory holding the UMP operator key (`CAIRN_UMP_KEY_DIR`, default `<config_dir>/ump`; SPEC §5 item 5). */
  umpKeyDir: string;
  /** Credentials and RBAC posture (SPEC §5). */
  auth: AuthConfig;
  /** Per-IP request budget (SPEC §8). */
  rateLimit: RateLimitConfig;
  /** Connection and RSS watchdogs (SPEC §8). */
  watchdog: WatchdogConfig;
  /** Opt-in outbound webhooks (SPEC §1 item 10, §6). */
  outbound: OutboundSettings;
  /** Case governance: re-ask window and channel bridge configs (SPEC §4.11, §6; issue 16). */
  workflow: WorkflowConfig;
  /** The opt-in model-provider lane (SPEC §1 item 3; issue 17): absent unless CAIRN_PROVIDER_URL and its key file are set. */
  provider?: ProviderConfig;
  /** Connector configs directory and enabled families (issue 15). */
  connectors: ConnectorSettings;
  /** Every raw variable this project knows, for features that parse their own rows. */
  raw: Readonly<Record<string, string | undefined>>;
}
