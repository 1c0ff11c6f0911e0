/**
 * The UMP service the composition root builds (SPEC §2.8, §4.9, §5): one
 * set of operations that the HTTP routes, the MCP tools, the CLI and the
 * file binding all call with the caller they resolved, so results are
 * identical across bindings. It also keeps its metadata in step with chunk
 * deletions made by other features (a transaction hook and an index hook).
 */
import type { IndexHooks, TxHook } from "../ingest/ports.ts";
import { unlinkChunkFromSources } from "../store/file-sources.ts";
import { deleteUmpRowsOfChunk, umpRowsOfChunks } from "../store/ump-records.ts";
import { canRead, requireUnscoped, type UmpActor } from "./actor.ts";
import { capabilities, type Capabilities } from "./capabilities.ts";
import { createUmpEvents, type UmpEvents } from "./events.ts";
import { createDidCache } from "./operator-did.ts";
import { exportRecords, type ExportEnvelope, type ExportOptions } from "./export-records.ts";
import { giveFeedback } from "./feedback.ts";
import { forget } from "./forget.ts";
import { authenticate, capabilityTrust, revokeToken, type GateInput } from "./gate.ts";
import { listRevokedJtis } from "../store/ump-records.ts";
import { getRecord, type GetResult } from "./get-record.ts";
import { importRecords, type ImportResult } from "./import-records.ts";
import { recallRecords, type RecallItem } from "./recall-records.ts";
import { remember, type RememberResult } from "./remember.ts";
import { headOf, liveIdsOfProject, storedRecord } from "./record-heads.ts";
import { revise, type ReviseResult } from "./revise.ts";
import type { UmpRecord } from "./types.ts";
import { sweepRetention } from "./sweep-retention.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { catchUpUmpIndex, isLive, loadUmpIndex, metaOfRow, umpTemporalFilter } from "./ump-index.ts";
import { materializeAllChunks } from "./export-records.ts";
import type { TemporalFilter } from "../recall/ports.ts";
import { parseWith } from "../core/schema.ts";
import type { AuditVerification } from "../audit/verify-audit.ts";
import { UmpAuditBody, type UmpAuditInput, type UmpFeedbackInput, type UmpForgetInput, type UmpRecallInput, type UmpReviseInput } from "./ump-schema.ts";
import { promoteRecord } from "./promote-record.ts";
import type { Exec } from "../store/db.ts";
import type { ProposalRow } from "../store/proposals.ts";
import { buildRegister, type Register } from "./register.ts";

/** A page of the audit log as `/ump/audit` (and `GET /audit`) serve it. */
export interface AuditPageView {
  rows: { id: number; ts: string; action: string; actor?: string; target?: string; detail: unknown; prev_hash: string; hash: string }[];
  next_after?: number;
}

/** Every UMP operation. */
export interface UmpService {
  readonly events: UmpEvents;
  /** The UMP part of the recall temporal seam (compose it with others in `memory.ts`). */
  readonly temporalFilter: TemporalFilter;
  /** Keeps record rows in step with chunk deletions made by other doors. */
  readonly txHook: TxHook;
  readonly indexHooks: IndexHooks;
  /** Loads the record metadata of chunks another process or node wrote (issue 20: the change feed calls it). */
  followChunks(chunkIds: readonly number[]): Promise<void>;
  /** The operator `did:key`, or undefined without a key. */
  operatorDid(): Promise<string | undefined>;
  authenticate(g: GateInput): Promise<UmpActor>;
  /** What the request guard trusts for capability tokens, given the current seed (synchronous). */
  capabilityTrust(seed: Uint8Array | undefined): ReturnType<typeof capabilityTrust>;
  capabilities(): Promise<Capabilities>;
  remember(actor: UmpActor, body: unknown): Promise<RememberResult>;
  get(actor: UmpActor, id: unknown): Promise<GetResult>;
  recall(actor: UmpActor, body: UmpRecallInput): Promise<{ results: RecallItem[] }>;
  revise(actor: UmpActor, body: UmpReviseInput): Promise<ReviseResult>;
  forget(actor: UmpActor, body: UmpForgetInput): Promise<{ result: "tombstoned" | "erased" }>;
  feedback(actor: UmpActor, body: UmpFeedbackInput): Promise<{ ok: true }>;
  /** `POST /ump/audit`: `{after?, limit?, action?}` (absent: from the start) → a page of the hash-chained log. */
  audit(actor: UmpActor, body?: UmpAuditInput): Promise<AuditPageView>;
  auditVerify(actor: UmpActor): Promise<AuditVerification>;
  /** Imports records; `door` names the HTTP door (posture-carrying), absent for the CLI and the vault. */
  importRecords(actor: UmpActor, records: readonly unknown[], o?: { source?: "structured" | "vault"; door?: string }): Promise<ImportResult>;
  /** SPEC §4.2 export through the read seam; `raw` (operator only, audited) skips it. */
  exportRecords(actor: UmpActor, o?: ExportOptions): Promise<ExportEnvelope>;
  revoke(jtiOrToken: string): Promise<{ jti: string; revoked: boolean }>;
  /** The live head of a record's lineage (vault binding); undefined when forgotten or erased. */
  headOf(id: string): Promise<string | undefined>;
  /** Ids of a project's live records (vault binding). */
  liveIdsOfProject(project: string): string[];
  /** Pages the live records the caller may read (MCP resources): `cursor` is opaque. */
  browse(actor: UmpActor, o: { cursor?: string; limit: number }): Promise<{ items: { id: string; project?: string; name: string }[]; next?: string }>;
  /** A record as stored, verified, without the read seam (for files). */
  storedRecord(actor: UmpActor, id: string): Promise<UmpRecord>;
  sweepRetention(): Promise<string[]>;
  /** The review service's promotion hook: an approved UMP proposal stores the record under the id its door handed out. */
  promoted(tx: Exec, p: ProposalRow, chunkId: number): Promise<(() => Promise<void>) | void>;
  /** The read-only Agent Memory Register (web client, SPEC §4.3): lineages by owner and kind, integrity checked. */
  register(actor: UmpActor, o?: { limit?: number }): Promise<Register>;
}

/** Builds the service over its dependencies (loads the metadata index). */
export async function createUmpService(base: Omit<UmpDeps, "index" | "events" | "didOf">): Promise<UmpService> {
  const d: UmpDeps = { ...base, index: await loadUmpIndex(base.db), events: createUmpEvents(), didOf: createDidCache() };
  // Revocations made here apply to the guard at once; ones made by another process (the CLI) are caught per request.
  const revoked = new Set(await listRevokedJtis(base.db.client));
  // Sweep at most once a second before reads, so an expired record is tombstoned durably soon after its deadline.
  let lastSweep = 0;
  const swept = async () => {
    const now = d.clock().getTime();
    if (now - lastSweep < 1000) return;
    lastSweep = now;
    await sweepRetention(d);
  };
  return {
    events: d.events,
    temporalFilter: umpTemporalFilter(d.index, d.clock),
    txHook: async (tx, ev) => {
      if (ev.action !== "delete" || ev.chunkId === undefined) return;
      await deleteUmpRowsOfChunk(tx, ev.chunkId);
      await unlinkChunkFromSources(tx, ev.chunkId);
    },
    indexHooks: { added: () => {}, removed: (id) => d.index.removeChunk(id), caughtUp: () => catchUpUmpIndex(d.db, d.index) },
    async followChunks(ids) {
      for (const r of await umpRowsOfChunks(d.db.client, ids)) d.index.put(metaOfRow(r));
    },
    operatorDid: async () => {
      const seed = await d.keys();
      return seed ? d.didOf(seed) : undefined;
    },
    authenticate: (g) => authenticate(d, g),
    capabilityTrust: (seed) => capabilityTrust(seed && d.didOf(seed), revoked),
    capabilities: async () => capabilities((await d.keys()) !== undefined),
    remember: (a, b) => remember(d, a, b),
    get: async (a, id) => (await swept(), getRecord(d, a, id)),
    recall: async (a, b) => (await swept(), recallRecords(d, a, b)),
    revise: (a, b) => revise(d, a, b),
    forget: (a, b) => forget(d, a, b),
    feedback: (a, b) => giveFeedback(d, a, b),
    async audit(a, raw) {
      requireUnscoped(a, "read");
      const b = raw === undefined || raw === null ? {} : parseWith(UmpAuditBody, raw);
      const after = b.after ?? 0;
      const limit = Math.max(1, b.limit ?? 100);
      const action = b.action ? b.action : undefined;
      const page = await d.audit.list({ after, limit, action });
      const rows = page.rows.map((r) => ({
        id: r.id, ts: r.ts, action: r.action, ...(r.actor !== undefined ? { actor: r.actor } : {}), ...(r.target !== undefined ? { target: r.target } : {}),
        detail: r.detail, prev_hash: r.prevHash, hash: r.hash,
      }));
      return page.next_after !== undefined ? { rows, next_after: page.next_after } : { rows };
    },
    async auditVerify(a) {
      requireUnscoped(a, "read");
      return { ...(await d.audit.verify()) };
    },
    importRecords: (a, records, o) => importRecords(d, a, records, o),
    exportRecords: async (a, o) => (await swept(), exportRecords(d, a, o)),
    async revoke(arg) {
      const r = await revokeToken(d, arg);
      revoked.add(r.jti);
      return r;
    },
    headOf: (id) => headOf(d, id),
    liveIdsOfProject: (project) => liveIdsOfProject(d, project),
    storedRecord: (a, id) => storedRecord(d, a, id),
    async browse(a, o) {
      await materializeAllChunks(d);
      const after = o.cursor && /^[0-9]{1,15}$/.test(o.cursor) ? Number(o.cursor) : 0;
      const now = d.clock().getTime();
      const visible = [...d.index.all()].filter((m) => m.seq > after && isLive(m, now, now) && canRead(a, m.scope)).sort((x, y) => x.seq - y.seq);
      const page = visible.slice(0, o.limit);
      const items = page.map((m) => ({ id: m.id, ...(m.scope.project !== undefined ? { project: m.scope.project } : {}), name: `${m.kind} ${m.id}` }));
      return visible.length > o.limit ? { items, next: String(page[page.length - 1].seq) } : { items };
    },
    sweepRetention: () => sweepRetention(d),
    promoted: (tx, p, chunkId) => promoteRecord(d, tx, p, chunkId),
    register: async (a, o = {}) => (await swept(), buildRegister(d, a, { limit: Math.max(1, Math.min(2000, o.limit ?? 500)) })),
  };
}
