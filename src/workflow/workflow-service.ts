/**
 * The workflow service the composition root exposes as `memory.workflow`
 * (SPEC §2.11, §3, §4.11, §4.12, §6): governed runs, case envelopes, the
 * complaint lifecycle, notes, status references, channels and the drain.
 * HTTP, the CLI and the case connectors call these same methods; the
 * contract is written out in src/workflow/README.md.
 */
import type { ReviewService } from "../review/review-service.ts";
import { listEvents } from "../store/workflow-runs.ts";
import { applyCase, type CaseApplied } from "./apply-case.ts";
import { CHANNEL_OUT_DOOR, channelOutHook, draftReply, drain, receiveInbound, type DrainedEnvelope, type InboundResult } from "./channel-service.ts";
import { complaintLifecycle, type LifecycleResult } from "./complaint-lifecycle.ts";
import type { RunView, WorkflowDeps } from "./deps.ts";
import type { PostedEvent } from "./emit-event.ts";
import { mountPlugin } from "./plugin-mount.ts";
import { MERGE_DOOR, reaskHook } from "./reask.ts";
import { addNote, mintStatusRef, noteLookups, openRun, readPayload, readRun, statusDocumentOf, statusDocuments, sweepDue } from "./run-service.ts";
import type { ChannelOutInput, InboundInput, LifecycleInput, MountInput, OpenRunInput, StatusRefInput } from "./workflow-schema.ts";
import type { StatusDocument } from "./status-document.ts";

/** Who is acting (an audit actor label; never raw personal data). */
export interface Acting {
  actor?: string;
}

/** Workflow operations. */
export interface WorkflowService {
  /** `POST /workflow/runs`: open or reuse the run of `state_json.case_ref`. */
  openRun(body: OpenRunInput, o?: Acting): Promise<{ run: RunView; reused: boolean }>;
  /** A run with its signals and events; event texts pass the read seam (redacted unless `piiRead`). */
  getRun(id: number, o?: { piiRead?: boolean }): Promise<RunView & { events: Record<string, unknown>[] }>;
  /** Applies a CrmCase envelope (connector sync or operator); `origin` e.g. `connector:zendesk` or `operator`. */
  applyCase(envelope: unknown, o: { origin: string } & Acting): Promise<CaseApplied>;
  /** `POST /workflow/runs/{id}/complaint/lifecycle`. */
  lifecycle(runId: number, body: LifecycleInput, o?: Acting): Promise<LifecycleResult>;
  /** `cairn workflow note`. */
  note(runId: number, text: string, o?: { reask?: boolean } & Acting): Promise<{ run_id: number; events: PostedEvent[] }>;
  /** `POST /workflow/runs/{id}/status-ref`. */
  mintStatusRef(runId: number, body: StatusRefInput, o?: Acting): Promise<{ ref: string; run_id: number; document: StatusDocument }>;
  /** The static document a reference points at. */
  statusDocument(ref: string): Promise<StatusDocument>;
  /** Every minted reference and its document (for a static build). */
  statusDocuments(at?: Date): Promise<{ ref: string; document: StatusDocument }[]>;
  /** Emits `valet/due` for runs whose SLA clock ran out (each drain runs it too). */
  sweepDue(): Promise<PostedEvent[]>;
  /** `POST /workflow/plugins/mount`. */
  mountPlugin(body: MountInput, o?: Acting & { webhookId?: string }): Promise<{ mount_id: number; plugin: string; kind: string; mounted: true }>;
  /** `POST /webhooks/channel/{kind}` (after the guard verified the signature). */
  inbound(kind: string, body: InboundInput, o: { webhookId: string }): Promise<InboundResult>;
  /** An operator's reply draft: a `channel/out` envelope pending review. */
  draftReply(runId: number, body: ChannelOutInput, o?: Acting): Promise<{ envelope_id: number; proposal_id: number; run_id: number; status: "pending_review" }>;
  /** `POST /webhooks/channel/{kind}/drain`. */
  drain(kind: string, body: unknown, o: { webhookId: string }): Promise<{ kind: string; envelopes: DrainedEnvelope[]; redelivered?: true }>;
  /** Recall served these chunk ids: feeds the solve signal of the cases they came from. */
  noteLookups(chunkIds: readonly number[]): Promise<number>;
  /** The outbox, in order (for consumers of the governed case events). */
  events(o: { after?: number; limit?: number; piiRead?: boolean }): Promise<{ id: number; run_id: number | null; type: string; payload: Record<string, unknown>; audit_id: number; created_at: string }[]>;
}

/** Builds the service and registers its review-gate doors. */
export function createWorkflowService(d: WorkflowDeps, review: ReviewService): WorkflowService {
  review.onDecision(CHANNEL_OUT_DOOR, channelOutHook(d));
  review.onDecision(MERGE_DOOR, reaskHook(d.audit));
  return {
    openRun: (body, o) => openRun(d, body, o),
    getRun: (id, o) => readRun(d, id, o),
    applyCase: (env, o) => applyCase(d, env, o),
    lifecycle: (id, body, o) => complaintLifecycle(d, id, body, o),
    note: (id, text, o) => addNote(d, id, text, o),
    mintStatusRef: (id, body, o) => mintStatusRef(d, id, body, o),
    statusDocument: (ref) => statusDocumentOf(d, ref),
    statusDocuments: (at) => statusDocuments(d, at),
    sweepDue: () => sweepDue(d),
    mountPlugin: (body, o) => mountPlugin(d, body, o),
    inbound: (kind, body, o) => receiveInbound(d, kind, body, o),
    draftReply: (id, body, o) => draftReply(d, id, body, o),
    async drain(kind, body, o) {
      const out = await drain(d, kind, body, o);
      await sweepDue(d);
      return out;
    },
    noteLookups: (ids) => noteLookups(d, ids),
    async events({ after = 0, limit = 100, piiRead = false }) {
      const rows = await listEvents(d.db.client, after, Math.max(1, Math.min(1000, limit)));
      return rows.map((e) => ({ id: e.id, run_id: e.runId, type: e.type, payload: readPayload(e.payload, piiRead), audit_id: e.auditId, created_at: e.createdAt }));
    },
  };
}
