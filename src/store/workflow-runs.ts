/**
 * Governed-run rows and the event outbox (SPEC §3 "Governed runs", §6):
 * insert, read and move runs; append outbox events; the re-ask lookup by
 * hashed subject; the SLA-clock sweep; merge suggestions and status refs.
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** Run states (chosen in src/workflow/README.md; SPEC §3 leaves them open). */
export type RunState = "open" | "waiting_customer" | "closed_solved" | "merged_away";

/** A stored run. */
export interface RunRow {
  id: number;
  caseRef: string;
  origin: string;
  state: RunState;
  stateJson: Record<string, unknown>;
  caseJson?: Record<string, unknown>;
  caseRev?: string;
  subjectRef?: string;
  slaClass: string;
  reopened: number;
  channelKind?: string;
  conversationRef?: string;
  solveLookups: number;
  openedAt: string;
  activeSince: string;
  updatedAt: string;
  closedAt?: string;
  dueAt: string;
  dueEmittedAt?: string;
}

/** A stored outbox event. */
export interface EventRow {
  id: number;
  runId: number | null;
  type: string;
  payload: Record<string, unknown>;
  auditId: number;
  createdAt: string;
}

const opt = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

function toRun(r: Row): RunRow {
  const run: RunRow = {
    id: Number(r.id), caseRef: String(r.case_ref), origin: String(r.origin), state: String(r.state) as RunState,
    stateJson: JSON.parse(String(r.state_json)), slaClass: String(r.sla_class), reopened: Number(r.reopened),
    solveLookups: Number(r.solve_lookups), openedAt: String(r.opened_at), activeSince: String(r.active_since),
    updatedAt: String(r.updated_at), dueAt: String(r.due_at),
  };
  if (r.case_json !== null && r.case_json !== undefined) run.caseJson = JSON.parse(String(r.case_json));
  const set = (k: keyof RunRow, v: unknown) => {
    const s = opt(v);
    if (s !== undefined) (run as unknown as Record<string, unknown>)[k] = s;
  };
  set("caseRev", r.case_rev);
  set("subjectRef", r.subject_ref);
  set("channelKind", r.channel_kind);
  set("conversationRef", r.conversation_ref);
  set("closedAt", r.closed_at);
  set("dueEmittedAt", r.due_emitted_at);
  return run;
}

/** Inserts a run; returns its id. */
export async function insertRun(ex: Exec, r: Omit<RunRow, "id" | "reopened" | "solveLookups" | "updatedAt" | "activeSince">): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO workflow_runs (case_ref, origin, state, state_json, case_json, case_rev, subject_ref, sla_class, channel_kind,
            conversation_ref, opened_at, active_since, updated_at, closed_at, due_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [r.caseRef, r.origin, r.state, JSON.stringify(r.stateJson), r.caseJson ? JSON.stringify(r.caseJson) : null, r.caseRev ?? null,
      r.subjectRef ?? null, r.slaClass, r.channelKind ?? null, r.conversationRef ?? null, r.openedAt, r.openedAt, r.openedAt,
      r.closedAt ?? null, r.dueAt],
  });
  return Number(rs.lastInsertRowid);
}

/** Reads one run by id. */
export async function getRun(ex: Exec, id: number): Promise<RunRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM workflow_runs WHERE id = ?", args: [id] });
  return rs.rows.length ? toRun(rs.rows[0]) : undefined;
}

/** Reads one run by its case reference. */
export async function getRunByCaseRef(ex: Exec, caseRef: string): Promise<RunRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM workflow_runs WHERE case_ref = ?", args: [caseRef] });
  return rs.rows.length ? toRun(rs.rows[0]) : undefined;
}

/** The newest active run bound to a channel conversation. */
export async function getRunByConversation(ex: Exec, kind: string, conversationRef: string): Promise<RunRow | undefined> {
  const rs = await ex.execute({
    sql: `SELECT * FROM workflow_runs WHERE channel_kind = ? AND conversation_ref = ? ORDER BY (state IN ('open', 'waiting_customer')) DESC, id DESC LIMIT 1`,
    args: [kind, conversationRef],
  });
  return rs.rows.length ? toRun(rs.rows[0]) : undefined;
}

/** Fields of a run that move together. */
export type RunPatch = Partial<Pick<RunRow, "state" | "stateJson" | "caseJson" | "caseRev" | "subjectRef" | "slaClass" | "reopened" | "channelKind"
  | "conversationRef" | "activeSince" | "dueAt">> & { closedAt?: string | null; dueEmittedAt?: string | null; updatedAt: string };

const COLUMNS: Record<string, string> = {
  state: "state", stateJson: "state_json", caseJson: "case_json", caseRev: "case_rev", subjectRef: "subject_ref", slaClass: "sla_class",
  reopened: "reopened", channelKind: "channel_kind", conversationRef: "conversation_ref", activeSince: "active_since", dueAt: "due_at",
  closedAt: "closed_at", dueEmittedAt: "due_emitted_at", updatedAt: "updated_at",
};

/** Updates a run's fields. */
export async function updateRun(ex: Exec, id: number, patch: RunPatch): Promise<void> {
  const sets: string[] = [];
  const args: (string | number | null)[] = [];
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) continue;
    sets.push(`${COLUMNS[k]} = ?`);
    args.push(v === null ? null : typeof v === "object" ? JSON.stringify(v) : (v as string | number));
  }
  await ex.execute({ sql: `UPDATE workflow_runs SET ${sets.join(", ")} WHERE id = ?`, args: [...args, id] });
}

/** The most recently closed `closed_solved` run of a hashed subject closed at or after `sinceIso`, other than `exceptId`. */
export async function recentClosedBySubject(ex: Exec, subjectRef: string, sinceIso: string, exceptId: number): Promise<RunRow | undefined> {
  const rs = await ex.execute({
    sql: `SELECT * FROM workflow_runs WHERE subject_ref = ? AND state = 'closed_solved' AND closed_at >= ? AND id <> ?
          ORDER BY closed_at DESC LIMIT 1`,
    args: [subjectRef, sinceIso, exceptId],
  });
  return rs.rows.length ? toRun(rs.rows[0]) : undefined;
}

/** Active runs whose SLA clock ran out and whose `valet/due` is not yet emitted. */
export async function dueRuns(ex: Exec, nowIso: string, limit = 200): Promise<RunRow[]> {
  const rs = await ex.execute({
    sql: `SELECT * FROM workflow_runs WHERE due_emitted_at IS NULL AND due_at <= ? AND state IN ('open', 'waiting_customer') ORDER BY due_at LIMIT ?`,
    args: [nowIso, limit],
  });
  return rs.rows.map(toRun);
}

/** Adds `n` revision lookups to runs by case reference (the solve signal). */
export async function addSolveLookups(ex: Exec, caseRefs: readonly string[]): Promise<void> {
  for (const ref of caseRefs) await ex.execute({ sql: "UPDATE workflow_runs SET solve_lookups = solve_lookups + 1 WHERE case_ref = ?", args: [ref] });
}

/** The case references of proposals filed from case bodies whose promoted chunk is among `chunkIds`. */
export async function caseRefsOfChunks(ex: Exec, chunkIds: readonly number[], door: string): Promise<string[]> {
  if (chunkIds.length === 0) return [];
  const ids = chunkIds.slice(0, 900);
  const rs = await ex.execute({
    sql: `SELECT DISTINCT source FROM proposals WHERE door = ? AND source IS NOT NULL AND promoted_chunk_id IN (${ids.map(() => "?").join(",")})`,
    args: [door, ...ids],
  });
  return rs.rows.map((r) => String(r.source));
}

/** Appends an outbox event (its audit row is already appended in the same transaction). */
export async function insertEvent(ex: Exec, e: Omit<EventRow, "id">): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO workflow_events (run_id, type, payload, audit_id, created_at) VALUES (?, ?, ?, ?, ?)",
    args: [e.runId, e.type, JSON.stringify(e.payload), e.auditId, e.createdAt],
  });
  return Number(rs.lastInsertRowid);
}

/** Replaces one event's payload (an audited amendment; the caller appends the audit row in the same transaction). */
export async function updateEventPayload(ex: Exec, eventId: number, payload: Record<string, unknown>): Promise<void> {
  await ex.execute({ sql: "UPDATE workflow_events SET payload = ? WHERE id = ?", args: [JSON.stringify(payload), eventId] });
}

/** A run's events in order. */
export async function listRunEvents(ex: Exec, runId: number): Promise<EventRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM workflow_events WHERE run_id = ? ORDER BY id", args: [runId] });
  return rs.rows.map((r) => ({
    id: Number(r.id), runId: r.run_id === null ? null : Number(r.run_id), type: String(r.type), payload: JSON.parse(String(r.payload)),
    auditId: Number(r.audit_id), createdAt: String(r.created_at),
  }));
}

/** A page of outbox events after `afterId`. */
export async function listEvents(ex: Exec, afterId: number, limit: number): Promise<EventRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM workflow_events WHERE id > ? ORDER BY id LIMIT ?", args: [afterId, limit] });
  return rs.rows.map((r) => ({
    id: Number(r.id), runId: r.run_id === null ? null : Number(r.run_id), type: String(r.type), payload: JSON.parse(String(r.payload)),
    auditId: Number(r.audit_id), createdAt: String(r.created_at),
  }));
}
