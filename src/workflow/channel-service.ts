/**
 * Channels (SPEC §4.11, §5 items 8 and 10, §6): inbound envelopes from the
 * three chat platforms, `channel/out` replies through the review gate, and
 * the drain crank. Inbound text is untrusted: it is screened and becomes a
 * case note on the run bound to its conversation, or a capture proposal;
 * never memory. The Standard-Webhooks signature is checked by the HTTP
 * guard; here the `webhook-id` is recorded in the same transaction as the
 * change, so a replayed id is refused (409 `webhook_replayed`) while a
 * delivery whose first attempt failed can be retried with the same id.
 */
import { MemoryError } from "../core/errors.ts";
import { screenWrite } from "../ingest/screen-write.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import type { DecisionHook } from "../review/decision-hooks.ts";
import type { Exec } from "../store/db.ts";
import {
  channelOutByProposal, claimApprovedOut, claimWebhookId, decideChannelOut, findChannelMessage, insertChannelMessage, insertChannelOut,
  outClaimedBy, pruneWebhookReceipts, webhookRoute, type ChannelOutRow,
} from "../store/workflow-channels.ts";
import { getRun, getRunByConversation, updateRun } from "../store/workflow-runs.ts";
import { transition } from "./apply-case.ts";
import { parseWith } from "../core/schema.ts";
import { objectBody, requireRun, type WorkflowDeps } from "./deps.ts";
import { ChannelOutBody, InboundBody, MAX_TEXT, type ChannelOutInput, type InboundInput } from "./workflow-schema.ts";
import { emitEvent } from "./emit-event.ts";
import { fileGovernedProposal } from "./governed-proposal.ts";
import { isActive } from "./run-states.ts";

/** The door `channel/out` envelopes are filed through (its approval makes them drainable). */
export const CHANNEL_OUT_DOOR = "workflow:channel_out";

/** SPEC §4.13: message text is non-empty and at most 10,000 characters. */
export { MAX_TEXT };

/** What an inbound envelope became. */
export type InboundResult =
  | { status: "noted"; kind: string; message_id: number; run_id: number; event_id: number; verdict: string }
  | { status: "proposed"; kind: string; message_id: number; proposal_id: number; verdict: string }
  | { status: "duplicate"; kind: string; message_id: number; run_id?: number; proposal_id?: number };

/** One drained envelope. */
export interface DrainedEnvelope {
  id: number;
  run_id: number;
  conversation_ref: string;
  text: string;
  approved_at?: string;
  delivered_at?: string;
}

/** Throws 404 unless the kind has a shared bridge config (the kind is selected by the config file's name segment). */
export function requireKind(d: WorkflowDeps, kind: string): void {
  if (!d.bridgeDigests.has(kind)) throw new MemoryError("not_found", "channel kind not configured");
}

/**
 * SPEC §5 item 8: a signed request's `webhook-id` is claimed in the transaction of its change, once across every signed
 * route, so a replay inside the ±300 s window is refused (409 `webhook_replayed`); a request refused before its
 * transaction does not burn the id, so the sender's retry with the same id is still accepted.
 */
export async function refuseReplay(tx: Exec, webhookId: string, route: string, now: string): Promise<void> {
  if (await claimWebhookId(tx, webhookId, route, now)) {
    throw new MemoryError("webhook_replayed", "this webhook-id was already received", undefined, 409);
  }
}

/** `POST /webhooks/channel/{kind}`: `{envelope: {conversation_ref, text, external_id}}`, deduplicated by `external_id`. */
export async function receiveInbound(d: WorkflowDeps, kind: string, body: InboundInput, o: { webhookId: string }): Promise<InboundResult> {
  requireKind(d, kind);
  const { envelope: { conversation_ref: conversationRef, text, external_id: externalId } } = parseWith(InboundBody, body);
  const screen = screenWrite(d.policy, text);
  return await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    await refuseReplay(tx, o.webhookId, `channel:${kind}`, now);
    await pruneWebhookReceipts(tx, new Date(Date.parse(now) - 3_600_000).toISOString());
    const seen = await findChannelMessage(tx, kind, externalId);
    if (seen) return { status: "duplicate", kind, message_id: seen.id, ...(seen.runId ? { run_id: seen.runId } : {}), ...(seen.proposalId ? { proposal_id: seen.proposalId } : {}) };
    const verdict = screen.result.verdict;
    const run = await getRunByConversation(tx, kind, conversationRef);
    if (run) {
      const ev = await emitEvent(tx, d.audit, {
        runId: run.id, type: "channel/in", now, actor: `channel:${kind}`,
        payload: { kind, external_id: externalId, text, verdict, flagged: screen.flagged, untrusted: true },
      });
      const patch = { updatedAt: now };
      // The customer answered: a run waiting on them is worked again.
      if (run.state === "waiting_customer") await transition(tx, d, run, "open", patch, {}, { by: "channel_in" }, now, `channel:${kind}`);
      await updateRun(tx, run.id, patch);
      const id = await insertChannelMessage(tx, { kind, externalId, conversationRef, runId: run.id, verdict, receivedAt: now });
      return { status: "noted", kind, message_id: id, run_id: run.id, event_id: ev.event_id, verdict };
    }
    // No run is bound to this conversation: a capture proposal for a human (SPEC §3: it promotes to a KCS draft at most).
    const p = await fileGovernedProposal(tx, { audit: d.audit, policy: d.policy, now }, {
      door: `/webhooks/channel/${kind}`, kind: "capture", origin: "channel", content: text, source: `channel:${kind}`,
    });
    const id = await insertChannelMessage(tx, { kind, externalId, conversationRef, proposalId: p.id, verdict, receivedAt: now });
    return { status: "proposed", kind, message_id: id, proposal_id: p.id, verdict };
  });
}

/** An operator drafts a reply on a run: a `channel/out` envelope filed in the review gate (`POST /workflow/runs/{id}/channel-out`). */
export async function draftReply(d: WorkflowDeps, runId: number, body: ChannelOutInput, o: { actor?: string } = {}): Promise<{ envelope_id: number; proposal_id: number; run_id: number; status: "pending_review" }> {
  const { text } = parseWith(ChannelOutBody, body);
  return await d.db.write(async (tx) => {
    const run = await requireRun(tx, runId);
    if (!run.channelKind || !run.conversationRef) throw new MemoryError("run_unbound", `run ${run.id} is bound to no channel conversation`, undefined, 409);
    if (!isActive(run.state)) throw new MemoryError("run_not_active", `run ${run.id} is ${run.state}`, { state: run.state }, 409);
    const now = d.clock().toISOString();
    const p = await fileGovernedProposal(tx, { audit: d.audit, policy: d.policy, now }, {
      door: CHANNEL_OUT_DOOR, origin: "operator", content: text, title: `channel/out on run ${run.id} via ${run.channelKind}`,
    });
    const id = await insertChannelOut(tx, { runId: run.id, kind: run.channelKind, conversationRef: run.conversationRef, text, proposalId: p.id, createdAt: now });
    await emitEvent(tx, d.audit, { runId: run.id, type: "channel/out", now, actor: o.actor, payload: { envelope_id: id, proposal_id: p.id, status: "pending_review", kind: run.channelKind } });
    return { envelope_id: id, proposal_id: p.id, run_id: run.id, status: "pending_review" };
  });
}

/** What a human's decision on a `channel/out` proposal does. */
export function channelOutHook(d: WorkflowDeps): DecisionHook {
  const decide = async (tx: Exec, proposalId: number, status: "approved" | "rejected", now: string) => {
    const row = await channelOutByProposal(tx, proposalId);
    if (!row) return undefined;
    await decideChannelOut(tx, row.id, status, now);
    const ev = await emitEvent(tx, d.audit, { runId: row.runId, type: "channel/out", now, payload: { envelope_id: row.id, status } });
    return { envelope_id: row.id, run_id: row.runId, status, event_id: ev.event_id };
  };
  return {
    approved: async (tx, p, now) => (await decide(tx, p.id, "approved", now)) ?? {},
    rejected: async (tx, p, now) => void (await decide(tx, p.id, "rejected", now)),
  };
}

/**
 * `POST /webhooks/channel/{kind}/drain`: claims approved `channel/out` envelopes of the kind (oldest first, `limit` 1–100,
 * default 20) and marks them delivered in the same transaction. At least once: a drain retried with the same
 * `webhook-id` (Standard-Webhooks retries reuse it) answers the same batch again with `redelivered: true`.
 */
export async function drain(d: WorkflowDeps, kind: string, body: unknown, o: { webhookId: string }): Promise<{ kind: string; envelopes: DrainedEnvelope[]; redelivered?: true }> {
  requireKind(d, kind);
  const raw = body === undefined || body === null ? {} : objectBody(body);
  const limit = raw.limit === undefined ? 20 : Number(raw.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new MemoryError("limit_out_of_range", "limit must be an integer from 1 to 100", { min: 1, max: 100 }, 400);
  const route = `drain:${kind}`;
  return await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    const first = await webhookRoute(tx, o.webhookId);
    if (first === route) return { kind, envelopes: (await outClaimedBy(tx, o.webhookId)).map(view), redelivered: true as const };
    await refuseReplay(tx, o.webhookId, route, now);
    // Receipts older than an hour can no longer verify (±300 s): forget them.
    await pruneWebhookReceipts(tx, new Date(Date.parse(now) - 3_600_000).toISOString());
    const rows = await claimApprovedOut(tx, kind, limit, o.webhookId, now);
    for (const r of rows) {
      await emitEvent(tx, d.audit, { runId: r.runId, type: "channel/out", now, actor: `channel:${kind}`, payload: { envelope_id: r.id, status: "delivered" } });
      const run = await getRun(tx, r.runId);
      if (run?.state === "open") {
        const patch = { updatedAt: now };
        await transition(tx, d, run, "waiting_customer", patch, {}, { by: "drain", envelope_id: r.id }, now, `channel:${kind}`);
        await updateRun(tx, run.id, patch);
      }
    }
    return { kind, envelopes: rows.map(view) };
  });
}

function view(r: ChannelOutRow): DrainedEnvelope {
  // The channel receives the read-canonical form: exactly the bytes the reviewer approved (SPEC §1: reference
  // definitions and hostile markup are stripped before content reaches a channel; no redaction of the reply itself).
  const v: DrainedEnvelope = { id: r.id, run_id: r.runId, conversation_ref: r.conversationRef, text: sanitizeForRead(r.text, { piiRead: true }) };
  if (r.approvedAt) v.approved_at = r.approvedAt;
  if (r.deliveredAt) v.delivered_at = r.deliveredAt;
  return v;
}
