/**
 * The shapes of the composition root (`src/memory.ts`): what the runtime provides (`MemoryPorts`) and the services
 * every binding calls (`Memory`). Kept apart from the wiring so that `memory.ts` reads as the order things are built in.
 */
import type { AuditService } from "./audit/audit-service.ts";
import type { Config } from "./config/config.ts";
import type { Embedder } from "./embed/embedder.ts";
import type { DomainService } from "./domains/domain-service.ts";
import type { WriteContext } from "./ingest/context.ts";
import type { IngestBatchInput, IngestInput, IngestResult, MarkdownInput } from "./ingest/ingest-schema.ts";
import type { BatchResult, ingestBatch } from "./ingest/ingest-batch.ts";
import type { EntryResult, MemoryBatchResult, ingestMemory } from "./ingest/ingest-memory.ts";
import type { MemoryDoorInput, MemoryEntryInput } from "./ingest/memory-door-schema.ts";
import type { MarkdownGraphPort, MarkdownIngestOptions, MarkdownIngestResult, ingestMarkdown } from "./ingest/ingest-markdown.ts";
import type { ConversationOptions, ConversationResult, ingestConversation } from "./conversation/ingest-conversation.ts";
import type { ConversationInput } from "./conversation/conversation-schema.ts";
import type { QuarantineService } from "./quarantine/quarantine-service.ts";
import type { IndexHooks, ParseWork, TextWork, TxHook } from "./ingest/ports.ts";
import type { deleteMemory } from "./lifecycle/delete-memory.ts";
import type { health, healthDb, stats } from "./ops/health-service.ts";
import type { Db } from "./store/db.ts";
import type { RecallCallOptions, RecallEngine } from "./recall/recall-engine.ts";
import type { RecallInput, RecallReply } from "./recall/recall-schema.ts";
import type { SnapshotStore } from "./recall/load-index.ts";
import type { ConsistencyCheck, checkConsistency } from "./consistency/check-consistency.ts";
import type { ErasureService } from "./erasure/erasure-service.ts";
import type { ShutdownReport } from "./ops/shutdown-report.ts";
import type { ConsolidateService } from "./review/consolidate-service.ts";
import type { ReadCanonical } from "./review/read-canonical.ts";
import type { ReviewService } from "./review/review-service.ts";
import type { GraphModel } from "./graph/graph-model.ts";
import type { GraphLegParams } from "./graph/graph-leg.ts";
import type { GraphService } from "./graph/graph-service.ts";
import type { ReadSecretFile } from "./auth/load-credentials.ts";
import type { SecurityServices } from "./auth/security-services.ts";
import type { OptInWebhooks } from "./outbound/opt-in-webhooks.ts";
import type { ErasureNotice } from "./outbound/erasure-webhook.ts";
import type { CrossScorer } from "./recall/ports.ts";
import type { UmpService } from "./ump/ump-service.ts";
import type { SourceService } from "./sources/source-service.ts";
import type { InjectionClassifier } from "./screen-model/classifier.ts";
import type { ParcelService } from "./parcel/parcel-service.ts";
import type { WorkflowService } from "./workflow/workflow-service.ts";
import type { ClaimService } from "./claims/claim-service.ts";
import type { ProviderService } from "./provider/provider-service.ts";
import type { KbService } from "./kb/kb-service.ts";
import type { ConnectorService } from "./connectors/connector-service.ts";
import type { ConnectorFiles } from "./connectors/config-files.ts";
import type { ChangeFeed } from "./changefeed/change-feed.ts";
import type { DomainPlaces } from "./domains/open-domain-dbs.ts";
import type { WorkScope } from "./core/deadline.ts";
import type { PostureWarning, PostureWarnings } from "./ops/boot-warnings.ts";

/** What the runtime provides (STYLE rule 5: runtime code stays in src/runtime/). */
export interface MemoryPorts {
  /** Resident set size of this process in bytes. */
  rssBytes: () => number;
  /** Where domain database files live (`CAIRN_MULTI_DB=true`; src/runtime/domain-files.ts). */
  domainFiles?: DomainPlaces;
  /** Clock; defaults to the system clock. */
  clock?: () => Date;
  /** Embedder; when absent, chunks are stored without vectors and recall is lexical only. */
  embedder?: Embedder;
  /** Worker threads for a batch's screen and embedding (issue 25, src/runtime/text-pool.ts); closed with the memory. */
  textWork?: TextWork;
  /**
   * Carries each request's deadline across its awaits (src/runtime/work-scope.ts), so CPU-bound work stops at it
   * (SPEC §8, docs/limits.md); absent → deadlines reach only the work they are handed (the recall budget).
   */
  workScope?: WorkScope;
  /** A worker thread for the parse of long markdown documents (src/runtime/parse-pool.ts); closed with the memory. */
  parseWork?: ParseWork;
  /** Optional local injection classifier (`CAIRN_INJECTION_CLASSIFIER_DIR`; SPEC §1 Trust rules). */
  injectionClassifier?: InjectionClassifier;
  /** Optional cross-encoder for the rerank tier (SPEC §1 step 5). */
  crossEncoder?: CrossScorer;
  /** Where the lexical snapshot is kept (a file beside the database); absent → rebuilt at every boot. */
  snapshots?: SnapshotStore;
  /** The review's read-canonical pipeline (defaults to the hygiene read seam; SPEC §1 review digest). */
  readCanonical?: ReadCanonical;
  /** Reads a secret file with its mode bits (AUTH_TOKEN_FILE, JWT and webhook secrets); required when one is configured. */
  readSecretFile?: ReadSecretFile;
  /** DNS for the outbound client; without it only IP-literal destinations resolve. */
  resolveHost?: (host: string) => Promise<string[]>;
  /** A fetch bound to checked addresses (SPEC §5 item 12: no second lookup); without it host names are refused. */
  pinnedFetch?: (addresses: readonly string[]) => typeof fetch;
  /** Ends the process (RSS watchdog under CAIRN_RSS_RESTART=1); without it the watchdog only logs. */
  exit?: (code: number) => void;
  /** Operational log sink; defaults to console. */
  log?: (level: "warn" | "error", message: string, fields: Record<string, unknown>) => void;
  /** This process's id and a liveness probe for another (the shutdown stamp, issue 23 §5); absent → 0 and "not alive". */
  pid?: number;
  pidAlive?: (pid: number) => boolean;
  /** Owner-only files for connector configs, secrets and the subject salt (issue 15); absent → connectors refuse. */
  connectorFiles?: ConnectorFiles;
  /** Waits between connector retries (tests inject a no-op); defaults to setTimeout. */
  connectorSleep?: (ms: number) => Promise<void>;
  /** The UMP operator seed, re-read on every call so rotation applies at once (SPEC §5 item 5); absent → no key, conformance L2. */
  umpKey?: () => Uint8Array | undefined;
  /** This node's default name when `CAIRN_NODE_ID` is unset (the runtime passes host name and pid; issue 20). */
  nodeId?: string;
  /**
   * A write-only session (`cairn import`; docs/vault.md "Chat history"): no recall index, graph model or change-feed
   * pass is loaded or kept, recall is refused. Writes still reach the store's change feed, which a running server
   * follows, and a later boot builds its indexes from the store. Absent: the full memory.
   */
  writeOnly?: boolean;
  /** Parts that failed open at boot (a rerank model that would not load), listed on `/health/db` as `warnings`. */
  bootWarnings?: readonly PostureWarning[];
}

/** The services every binding calls. */
export interface Memory {
  readonly config: Config;
  /** Where request work runs: the HTTP guard runs each request under its deadline here (SPEC §8). */
  readonly work: WorkScope;
  readonly db: Db;
  readonly write: WriteContext;
  readonly domains: DomainService;
  /** The hash-chained audit log (SPEC §1 item 5). */
  readonly audit: AuditService;
  /** `POST /ingest`: the structured write (SPEC §4.2); the body is validated with `IngestBody` whatever its static type. */
  ingest(body: IngestInput): Promise<IngestResult>;
  /** `POST /ingest/batch`: structured bodies validated first, then written in one transaction. */
  ingestBatch(body: IngestBatchInput): Promise<BatchResult>;
  /** `POST /ingest/markdown`: heading-aware chunks stamped markdown (or vault). */
  ingestMarkdown(body: MarkdownInput, opts?: Omit<MarkdownIngestOptions, "graph">): Promise<MarkdownIngestResult>;
  /** Registers the graph port markdown documents are handed to (SPEC §2.6 edge sources 1–3). */
  setMarkdownGraph(port: MarkdownGraphPort): void;
  /** `POST /ingest/memory`: strip + skip rule per entry. */
  ingestMemory(body: MemoryDoorInput): Promise<EntryResult | MemoryBatchResult>;
  /** `POST /add` (deprecated): strip only. */
  add(body: MemoryEntryInput): Promise<EntryResult>;
  /** `POST /ingest/conversation` (issue 24): one chunk per turn with a window of neighbours, speaker and dates kept. */
  ingestConversation(body: ConversationInput, opts?: ConversationOptions): Promise<ConversationResult>;
  /** The recall engine (SPEC §4.1). */
  readonly recallEngine: RecallEngine;
  /** `POST /recall` (SPEC §4.1): the body is validated with `RecallBody` whatever its static type. */
  recall(body: RecallInput, opts?: RecallCallOptions): Promise<RecallReply>;
  /** Quarantine review (SPEC §4.4). */
  readonly quarantine: QuarantineService;
  /** The knowledge graph (SPEC §2.6, §4.6): routes' service, the recall leg's in-memory model and its tunables. */
  readonly graph: GraphService & { readonly model: GraphModel; legParams: GraphLegParams };
  deleteMemory(rawId: string): Promise<{ deleted: true }>;
  health(): Promise<{ status: string; version: string; error?: string }>;
  healthDb(): Promise<Record<string, unknown>>;
  stats(): Promise<Record<string, unknown>>;
  ready(): Promise<{ ready: boolean }>;
  /** Review gate: proposals, digest-bound approval, rejection (SPEC §2.7, §3, §4.3). */
  readonly review: ReviewService;
  /** Supersedes/contradicts links (SPEC §3, §4.4). */
  readonly consolidate: ConsolidateService;
  /** Purge, data-subject erasure, deletion certificates (SPEC §1 item 6, §4.4). */
  readonly erasure: ErasureService;
  /** `cairn check-consistency`: the store's invariants plus the shutdown stamp (the morning check, issue 23 §5). */
  checkConsistency(): Promise<{ ok: boolean; checks: ConsistencyCheck[] }>;
  /** Marks this process as the store's server (boot stamp); the close then stamps a clean shutdown. Returns how the last run ended. */
  markServing(): Promise<ShutdownReport>;
  /** How the last run ended, and whether a server runs now. */
  shutdownReport(): Promise<ShutdownReport>;
  /** Authentication, authorization, rate limits, metrics and watchdogs (SPEC §5, §8; issue 8). */
  readonly security: SecurityServices;
  /** Posture warnings shown on `/health/db` (boot fail-open parts, sharp defaults in use). */
  readonly warnings: PostureWarnings;
  /** Opt-in outbound webhooks: system alerts and the erasure event port (SPEC §6; issue 8). */
  readonly webhooks: OptInWebhooks;
  /** Registers a listener called after every committed erasure (the erasure webhook is one). */
  onErasure(listener: (notice: ErasureNotice) => void | Promise<void>): void;
  /** Called by the erasure workflow after its transaction commits; fires the erasure webhook when configured. */
  emitErasure(notice: ErasureNotice): Promise<void>;
  /** UMP 1.0 records, tokens and the file binding (SPEC §2.8, §4.9). */
  readonly ump: UmpService;
  /** File sources of the vault binding and the orphan sweep (SPEC §4.4 `/sources/reconcile`). */
  readonly sources: SourceService;
  /** The operational log (one JSON line per event; issue 23 §2: every 500 logs one, with its request id). */
  log(level: "warn" | "error", message: string, fields: Record<string, unknown>): void;
  /** Signed parcels, the parcel ledger and domain snapshots (SPEC §2.10, §4.5, §4.10; issue 14). */
  readonly parcels: ParcelService;
  /** Case governance: governed runs, case envelopes, channels and the drain (SPEC §2.11, §4.11, §6; src/workflow/README.md). */
  readonly workflow: WorkflowService;
  /** The claims loop: claim schemas, claims, verify; promotion is always refused (SPEC §2.12, §3, §4.11; src/claims/README.md). */
  readonly claims: ClaimService;
  /** The opt-in model-provider lane, governed workflow only (SPEC §1 item 3; src/provider/README.md). */
  readonly provider: ProviderService;
  /** KCS articles, revisions and translations; the data `kb build` reads (SPEC §3, §4.11, §4.12; src/kb/README.md). */
  readonly kb: KbService;
  /** Connectors: registry, registration, operator-initiated sync (SPEC §2.12, §4.4, §4.12; src/connectors/README.md). */
  readonly connectors: ConnectorService;
  /** This node's name (`CAIRN_NODE_ID`; `/health/db` `node.id`). */
  readonly nodeId: string;
  /** The change feed keeping this process's indexes in step with every writer's (issue 20; src/changefeed/). */
  readonly changes: ChangeFeed;
  /** Registers an index kept in step with writes. */
  addIndexHooks(h: IndexHooks): void;
  /** Registers an in-transaction hook (audit rows). */
  addTxHook(h: TxHook): void;
  close(): Promise<void>;
}
