/**
 * What the workflow services share (built once by the composition root),
 * plus the run view every answer uses. Views never carry the case body and
 * carry the hashed subject only as stored (SPEC §2.11).
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { InjectionPolicy } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import type { Db, Exec } from "../store/db.ts";
import { getRun, type EventRow, type RunRow } from "../store/workflow-runs.ts";

/** The three channel kinds (SPEC §4.11: one per supported chat platform). */
export const CHANNEL_KINDS = ["signal", "telegram", "whatsapp"] as const;

/** One channel kind. */
export type ChannelKind = (typeof CHANNEL_KINDS)[number];

/** Shared dependencies. */
export interface WorkflowDeps {
  db: Db;
  audit: AuditService;
  clock: () => Date;
  policy: InjectionPolicy;
  /** `CAIRN_REASK_WINDOW_DAYS`. */
  reaskWindowDays: number;
  /** SHA-256 (hex) of each enabled kind's shared bridge config bytes; a kind without one is not enabled. */
  bridgeDigests: ReadonlyMap<string, string>;
}

/** The run as answered over HTTP, MCP and the CLI. */
export interface RunView {
  id: number;
  case_ref: string;
  origin: string;
  state: RunRow["state"];
  state_json: Record<string, unknown>;
  sla_class: string;
  reopened: number;
  opened_at: string;
  updated_at: string;
  due_at: string;
  closed_at?: string;
  channel?: { kind: string; conversation_ref: string };
  case?: Record<string, unknown>;
  signals?: RunSignals;
}

/** Signals read off a run's events (src/workflow/README.md "Signals and events"). */
export interface RunSignals {
  /** Customer-facing touches; a re-ask weighs 2 (SPEC §6). */
  effort: number;
  reasks: number;
  inbound: number;
  delivered_replies: number;
  contact_attempts: number;
  /** A customer feedback event confirmed the solve (solved-proof deflection). */
  deflection_proof: boolean;
  /** Recall hits on knowledge promoted from this case's body (the solve signal). */
  solve_lookups: number;
  valet_due: boolean;
}

/** The view of a run. */
export function runView(r: RunRow, events?: readonly EventRow[]): RunView {
  const v: RunView = {
    id: r.id, case_ref: r.caseRef, origin: r.origin, state: r.state, state_json: r.stateJson, sla_class: r.slaClass, reopened: r.reopened,
    opened_at: r.openedAt, updated_at: r.updatedAt, due_at: r.dueAt,
  };
  if (r.closedAt) v.closed_at = r.closedAt;
  if (r.channelKind && r.conversationRef) v.channel = { kind: r.channelKind, conversation_ref: r.conversationRef };
  if (r.caseJson) v.case = r.caseJson;
  if (events) v.signals = signalsOf(r, events);
  return v;
}

/** Computes the run's signals from its events. */
export function signalsOf(r: RunRow, events: readonly EventRow[]): RunSignals {
  const n = (pred: (e: EventRow) => boolean) => events.filter(pred).length;
  const reasks = n((e) => e.type === "case/reask");
  const inbound = n((e) => e.type === "channel/in");
  const delivered = n((e) => e.type === "channel/out" && e.payload.status === "delivered");
  const attempts = n((e) => e.type === "complaint/contact_attempt");
  return {
    effort: inbound + delivered + attempts + 2 * reasks, reasks, inbound, delivered_replies: delivered, contact_attempts: attempts,
    deflection_proof: events.some((e) => e.type === "customer/feedback" && e.payload.solved === true),
    solve_lookups: r.solveLookups, valet_due: events.some((e) => e.type === "valet/due"),
  };
}

/** The run or 404. */
export async function requireRun(ex: Exec, id: number): Promise<RunRow> {
  const r = Number.isSafeInteger(id) && id > 0 ? await getRun(ex, id) : undefined;
  if (!r) throw new MemoryError("not_found", `run ${id} not found`);
  return r;
}

/** A positive integer run id from a path segment (400 otherwise). */
export function parseRunId(raw: string): number {
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw new MemoryError("invalid_request", "run id must be a positive integer", { field: "id" }, 400);
  return n;
}

/** A required string field of a body, 1..max characters (400 `invalid_request` naming it). */
export function field(b: Record<string, unknown>, name: string, max: number): string {
  const v = b[name];
  if (typeof v !== "string" || v.trim() === "") throw new MemoryError("invalid_request", `${name} must be a non-empty string`, { field: name }, 400);
  if (v.length > max) throw new MemoryError("invalid_request", `${name} must be at most ${max} characters`, { field: name, max }, 400);
  return v;
}

/** The body as an object (400 otherwise). */
export function objectBody(body: unknown, name = "body"): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) throw new MemoryError("invalid_request", `${name} must be a JSON object`, { field: name }, 400);
  return body as Record<string, unknown>;
}
