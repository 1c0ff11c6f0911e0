/**
 * Posts one governed case event (SPEC §6) inside the caller's write
 * transaction: the hash-chained audit row first, then the outbox row that
 * names it, so the event and its audit row commit (or roll back) with the
 * change they record. The audit row carries the event type, the run and a
 * SHA-256 of the payload, never the payload's text (STYLE: audit details
 * hold no raw personal data).
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { Exec } from "../store/db.ts";
import { insertEvent } from "../store/workflow-runs.ts";

/** The governed case event types (SPEC §6 plus this project's run events; src/workflow/README.md "Signals and events"). */
export type EventType =
  | "run/opened" | "run/channel_bound" | "run/note" | "run/transition"
  | "crm/case/updated" | "crm/case/closed" | "case/reask" | "channel/in" | "channel/out" | "valet/due" | "customer/feedback"
  | "complaint/contact_attempt" | "status_ref/minted" | "plugin/mounted";

/** One posted event's ids. */
export interface PostedEvent {
  event_id: number;
  audit_id: number;
  type: EventType;
}

/** SHA-256 hex of a string (Web Crypto). */
export async function sha256Hex(text: string | Uint8Array): Promise<string> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Appends the audit row and the outbox event. */
export async function emitEvent(
  tx: Exec,
  audit: AuditService,
  e: { runId: number | null; type: EventType; payload: Record<string, unknown>; now: string; actor?: string },
): Promise<PostedEvent> {
  const a = await audit.append(tx, {
    action: "workflow_event", actor: e.actor, target: e.runId !== null ? `run:${e.runId}` : undefined,
    detail: { type: e.type, run_id: e.runId, payload_sha256: await sha256Hex(JSON.stringify(e.payload)) },
  });
  const id = await insertEvent(tx, { runId: e.runId, type: e.type, payload: e.payload, auditId: a.id, createdAt: e.now });
  return { event_id: id, audit_id: a.id, type: e.type };
}
