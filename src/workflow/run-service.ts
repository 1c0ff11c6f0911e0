/**
 * Runs beyond case envelopes (SPEC §4.11, §4.12, §6): `POST /workflow/runs`
 * opens or reuses the run keyed by `state_json.case_ref`, operator notes
 * (`cairn workflow note`, audited; `--reask` records a re-ask), case status
 * references, the SLA-clock sweep that emits `valet/due`, and the solve
 * signal fed by recall's lookups of knowledge promoted from a case body.
 */
import { MemoryError } from "../core/errors.ts";
import { screenWrite } from "../ingest/screen-write.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { insertStatusRef, listStatusRefs, outOfRun, runOfStatusRef } from "../store/workflow-channels.ts";
import {
  addSolveLookups, caseRefsOfChunks, dueRuns, getRun, getRunByCaseRef, insertRun, listRunEvents, updateRun, type RunRow,
} from "../store/workflow-runs.ts";
import { CASE_BODY_DOOR } from "./apply-case.ts";
import { parseWith } from "../core/schema.ts";
import { requireRun, runView, type RunView, type WorkflowDeps } from "./deps.ts";
import { OpenRunBody, StatusRefBody, type OpenRunInput, type StatusRefInput } from "./workflow-schema.ts";
import { emitEvent, sha256Hex, type PostedEvent } from "./emit-event.ts";
import { dueAt, slaClassOf } from "./sla.ts";
import { statusDocument, type StatusDocument } from "./status-document.ts";


/** `POST /workflow/runs` body → the run, opened (`reused: false`) or found by its case reference. */
export async function openRun(d: WorkflowDeps, body: OpenRunInput, o: { actor?: string } = {}): Promise<{ run: RunView; reused: boolean }> {
  const { state_json: sj } = parseWith(OpenRunBody, body);
  const { case_ref: caseRef, origin, channel } = sj;
  return await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    let run = await getRunByCaseRef(tx, caseRef);
    const reused = run !== undefined;
    if (!run) {
      const sla = slaClassOf(undefined);
      const id = await insertRun(tx, { caseRef, origin, state: "open", stateJson: sj, slaClass: sla, openedAt: now, dueAt: dueAt(sla, now), ...chan(channel) });
      await emitEvent(tx, d.audit, { runId: id, type: "run/opened", now, actor: o.actor, payload: { case_ref: caseRef, origin } });
      run = (await getRun(tx, id))!;
    } else if (channel && (channel.kind !== run.channelKind || channel.conversation_ref !== run.conversationRef)) {
      await updateRun(tx, run.id, { channelKind: channel.kind, conversationRef: channel.conversation_ref, stateJson: { ...run.stateJson, channel }, updatedAt: now });
      await emitEvent(tx, d.audit, { runId: run.id, type: "run/channel_bound", now, actor: o.actor, payload: { kind: channel.kind } });
      run = (await getRun(tx, run.id))!;
    }
    return { run: runView(run), reused };
  });
}

const chan = (c?: { kind: string; conversation_ref: string }) => (c ? { channelKind: c.kind, conversationRef: c.conversation_ref } : {});

/** A payload as emitted: its `text` passes the SPEC §1 read seam (PII redacted unless the reader holds `pii:read`). */
export function readPayload(p: Record<string, unknown>, piiRead: boolean): Record<string, unknown> {
  return typeof p.text === "string" ? { ...p, text: sanitizeForRead(p.text, { piiRead }) } : p;
}

/** A run with its signals and events. */
export async function readRun(d: WorkflowDeps, id: number, o: { piiRead?: boolean } = {}): Promise<RunView & { events: Record<string, unknown>[] }> {
  const run = await requireRun(d.db.client, id);
  const events = await listRunEvents(d.db.client, id);
  return {
    ...runView(run, events),
    events: events.map((e) => ({ id: e.id, type: e.type, payload: readPayload(e.payload, o.piiRead === true), audit_id: e.auditId, created_at: e.createdAt })),
  };
}

/** `cairn workflow note <run> <text> [--reask]`: an audited operator note; `reask` also posts `case/reask` (source `operator`). */
export async function addNote(d: WorkflowDeps, runId: number, text: string, o: { reask?: boolean; actor?: string } = {}): Promise<{ run_id: number; events: PostedEvent[] }> {
  if (typeof text !== "string" || text.trim() === "" || text.length > 10_000) throw new MemoryError("invalid_request", "note text must be 1 to 10,000 characters", { field: "text" }, 400);
  // Notes are screened like every write; a flagged note is kept and marked, never promoted to memory.
  const flagged = screenWrite(d.policy, text).flagged;
  return await d.db.write(async (tx) => {
    const run = await requireRun(tx, runId);
    const now = d.clock().toISOString();
    const events = [await emitEvent(tx, d.audit, { runId: run.id, type: "run/note", now, actor: o.actor ?? "operator", payload: { text, flagged, untrusted: true } })];
    if (o.reask) events.push(await emitEvent(tx, d.audit, { runId: run.id, type: "case/reask", now, actor: o.actor ?? "operator", payload: { source: "operator" } }));
    await updateRun(tx, run.id, { updatedAt: now });
    return { run_id: run.id, events };
  });
}

/** `POST /workflow/runs/{id}/status-ref {action: "mint"}`: an unguessable reference to the run's static status document. */
export async function mintStatusRef(d: WorkflowDeps, runId: number, body: StatusRefInput, o: { actor?: string } = {}): Promise<{ ref: string; run_id: number; document: StatusDocument }> {
  parseWith(StatusRefBody, body);
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  // 256 random bits, base64url: unguessable, and it says nothing about the case.
  const ref = "cs_" + btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return await d.db.write(async (tx) => {
    const run = await requireRun(tx, runId);
    const now = d.clock();
    await insertStatusRef(tx, ref, run.id, now.toISOString());
    await emitEvent(tx, d.audit, { runId: run.id, type: "status_ref/minted", now: now.toISOString(), actor: o.actor, payload: { ref_sha256: await sha256Hex(ref) } });
    return { ref, run_id: run.id, document: await documentOf(d, tx, run, now) };
  });
}

async function documentOf(d: WorkflowDeps, ex: Parameters<typeof listRunEvents>[0], run: RunRow, now: Date): Promise<StatusDocument> {
  const touched = (await outOfRun(ex, run.id)).some((o) => o.status === "delivered") || (await listRunEvents(ex, run.id)).some((e) => e.type === "run/note");
  return statusDocument(run, { now, touched });
}

/** The status document a reference points at (404 for an unknown reference). */
export async function statusDocumentOf(d: WorkflowDeps, ref: string, at?: Date): Promise<StatusDocument> {
  const runId = await runOfStatusRef(d.db.client, ref);
  const run = runId === undefined ? undefined : await getRun(d.db.client, runId);
  if (!run) throw new MemoryError("not_found", "status reference not found");
  return await documentOf(d, d.db.client, run, at ?? d.clock());
}

/** Every minted reference with its document (what a static status build writes); `at` fixes the build time (issue 17: reproducible builds). */
export async function statusDocuments(d: WorkflowDeps, at?: Date): Promise<{ ref: string; document: StatusDocument }[]> {
  const out: { ref: string; document: StatusDocument }[] = [];
  for (const { ref } of await listStatusRefs(d.db.client)) out.push({ ref, document: await statusDocumentOf(d, ref, at) });
  return out;
}

/** Emits `valet/due` once for each active run whose SLA clock ran out. */
export async function sweepDue(d: WorkflowDeps): Promise<PostedEvent[]> {
  const now = d.clock().toISOString();
  if ((await dueRuns(d.db.client, now, 1)).length === 0) return [];
  return await d.db.write(async (tx) => {
    const out: PostedEvent[] = [];
    for (const r of await dueRuns(tx, now)) {
      out.push(await emitEvent(tx, d.audit, { runId: r.id, type: "valet/due", now, payload: { sla_class: r.slaClass, due_at: r.dueAt } }));
      await updateRun(tx, r.id, { dueEmittedAt: now, updatedAt: now });
    }
    return out;
  });
}

/** The solve signal: recall served knowledge promoted from these runs' case bodies (SPEC §6 "revision lookups in recall"). */
export async function noteLookups(d: WorkflowDeps, chunkIds: readonly number[]): Promise<number> {
  const refs = await caseRefsOfChunks(d.db.client, chunkIds, CASE_BODY_DOOR);
  if (refs.length > 0) await d.db.write((tx) => addSolveLookups(tx, refs));
  return refs.length;
}
