/**
 * Channel and case-governance side tables (SPEC §4.11, §5 item 8, §6):
 * inbound messages (unique per kind and `external_id`), outbound
 * `channel/out` envelopes and their drain claims, Standard-Webhooks
 * receipts (a replayed `webhook-id` is found here), case status references,
 * plugin mounts and case merge suggestions.
 */
import type { Exec } from "./db.ts";

/** An outbound envelope row. */
export interface ChannelOutRow {
  id: number;
  runId: number;
  kind: string;
  conversationRef: string;
  text: string;
  proposalId: number;
  status: "pending" | "approved" | "rejected" | "delivered";
  createdAt: string;
  approvedAt?: string;
  deliveredAt?: string;
}

/** A merge suggestion row. */
export interface MergeSuggestionRow {
  proposalId: number;
  runId: number;
  priorRunId: number;
  basis: "subject_match" | "crm_merge";
  status: "pending" | "approved" | "rejected";
}

/** The stored inbound message of `(kind, external_id)`, if seen. */
export async function findChannelMessage(ex: Exec, kind: string, externalId: string): Promise<{ id: number; runId?: number; proposalId?: number } | undefined> {
  const rs = await ex.execute({ sql: "SELECT id, run_id, proposal_id FROM channel_messages WHERE kind = ? AND external_id = ?", args: [kind, externalId] });
  const r = rs.rows[0];
  if (!r) return undefined;
  return { id: Number(r.id), ...(r.run_id !== null ? { runId: Number(r.run_id) } : {}), ...(r.proposal_id !== null ? { proposalId: Number(r.proposal_id) } : {}) };
}

/** Records an inbound message (its text lives in the run event or the proposal, never here). */
export async function insertChannelMessage(ex: Exec, m: { kind: string; externalId: string; conversationRef: string; runId?: number; proposalId?: number; verdict: string; receivedAt: string }): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO channel_messages (kind, external_id, conversation_ref, run_id, proposal_id, verdict, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    args: [m.kind, m.externalId, m.conversationRef, m.runId ?? null, m.proposalId ?? null, m.verdict, m.receivedAt],
  });
  return Number(rs.lastInsertRowid);
}

/** True when the webhook id was already received; otherwise records it. */
export async function claimWebhookId(ex: Exec, webhookId: string, route: string, at: string): Promise<boolean> {
  const rs = await ex.execute({ sql: "INSERT INTO webhook_receipts (webhook_id, route, received_at) VALUES (?, ?, ?) ON CONFLICT (webhook_id) DO NOTHING", args: [webhookId, route, at] });
  return rs.rowsAffected === 0;
}

/** The route a webhook id was first received on. */
export async function webhookRoute(ex: Exec, webhookId: string): Promise<string | undefined> {
  const rs = await ex.execute({ sql: "SELECT route FROM webhook_receipts WHERE webhook_id = ?", args: [webhookId] });
  return rs.rows.length ? String(rs.rows[0].route) : undefined;
}

/** Forgets receipts older than `beforeIso` (outside the ±300 s window they can no longer verify). */
export async function pruneWebhookReceipts(ex: Exec, beforeIso: string): Promise<void> {
  await ex.execute({ sql: "DELETE FROM webhook_receipts WHERE received_at < ?", args: [beforeIso] });
}

function toOut(r: Record<string, unknown>): ChannelOutRow {
  const o: ChannelOutRow = {
    id: Number(r.id), runId: Number(r.run_id), kind: String(r.kind), conversationRef: String(r.conversation_ref), text: String(r.text),
    proposalId: Number(r.proposal_id), status: String(r.status) as ChannelOutRow["status"], createdAt: String(r.created_at),
  };
  if (r.approved_at !== null && r.approved_at !== undefined) o.approvedAt = String(r.approved_at);
  if (r.delivered_at !== null && r.delivered_at !== undefined) o.deliveredAt = String(r.delivered_at);
  return o;
}

/** Inserts a pending outbound envelope. */
export async function insertChannelOut(ex: Exec, o: Omit<ChannelOutRow, "id" | "status" | "approvedAt" | "deliveredAt">): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO channel_out (run_id, kind, conversation_ref, text, proposal_id, status, created_at) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
    args: [o.runId, o.kind, o.conversationRef, o.text, o.proposalId, o.createdAt],
  });
  return Number(rs.lastInsertRowid);
}

/** The envelope bound to a proposal. */
export async function channelOutByProposal(ex: Exec, proposalId: number): Promise<ChannelOutRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM channel_out WHERE proposal_id = ?", args: [proposalId] });
  return rs.rows.length ? toOut(rs.rows[0] as unknown as Record<string, unknown>) : undefined;
}

/** Moves a pending envelope to approved or rejected. */
export async function decideChannelOut(ex: Exec, id: number, status: "approved" | "rejected", at: string): Promise<void> {
  await ex.execute({ sql: "UPDATE channel_out SET status = ?, approved_at = ? WHERE id = ? AND status = 'pending'", args: [status, status === "approved" ? at : null, id] });
}

/**
 * Claims up to `limit` approved envelopes of a kind: marks them delivered under `drainId` and returns them (oldest
 * first). A row whose stored text holds a NUL (written before every door refused it) is never claimed: it reads back
 * cut at the NUL, so what the reviewer approved is not what the row holds (`check-consistency`: stored_text_nul).
 */
export async function claimApprovedOut(ex: Exec, kind: string, limit: number, drainId: string, at: string): Promise<ChannelOutRow[]> {
  const rs = await ex.execute({
    sql: "SELECT * FROM channel_out WHERE kind = ? AND status = 'approved' AND instr(CAST(text AS BLOB), X'00') = 0 ORDER BY id LIMIT ?",
    args: [kind, limit],
  });
  const rows = rs.rows.map((r) => toOut(r as unknown as Record<string, unknown>));
  for (const r of rows) {
    await ex.execute({ sql: "UPDATE channel_out SET status = 'delivered', delivered_at = ?, drain_id = ? WHERE id = ? AND status = 'approved'", args: [at, drainId, r.id] });
    r.status = "delivered";
    r.deliveredAt = at;
  }
  return rows;
}

/** The envelopes an earlier drain call claimed (a retried delivery gets the same batch). */
export async function outClaimedBy(ex: Exec, drainId: string): Promise<ChannelOutRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM channel_out WHERE drain_id = ? ORDER BY id", args: [drainId] });
  return rs.rows.map((r) => toOut(r as unknown as Record<string, unknown>));
}

/** Outbound envelopes of a run. */
export async function outOfRun(ex: Exec, runId: number): Promise<ChannelOutRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM channel_out WHERE run_id = ? ORDER BY id", args: [runId] });
  return rs.rows.map((r) => toOut(r as unknown as Record<string, unknown>));
}

/** Stores a minted case status reference. */
export async function insertStatusRef(ex: Exec, ref: string, runId: number, at: string): Promise<void> {
  await ex.execute({ sql: "INSERT INTO case_status_refs (ref, run_id, minted_at) VALUES (?, ?, ?)", args: [ref, runId, at] });
}

/** The run a status reference points at. */
export async function runOfStatusRef(ex: Exec, ref: string): Promise<number | undefined> {
  const rs = await ex.execute({ sql: "SELECT run_id FROM case_status_refs WHERE ref = ?", args: [ref] });
  return rs.rows.length ? Number(rs.rows[0].run_id) : undefined;
}

/** Every minted status reference (for a static status build). */
export async function listStatusRefs(ex: Exec): Promise<{ ref: string; runId: number }[]> {
  const rs = await ex.execute("SELECT ref, run_id FROM case_status_refs ORDER BY minted_at, ref");
  return rs.rows.map((r) => ({ ref: String(r.ref), runId: Number(r.run_id) }));
}

/** Records a plugin mount. */
export async function insertPluginMount(ex: Exec, m: { plugin: string; kind: string; configSha256: string; mountedAt: string }): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO plugin_mounts (plugin, kind, config_sha256, mounted_at) VALUES (?, ?, ?, ?)",
    args: [m.plugin, m.kind, m.configSha256, m.mountedAt],
  });
  return Number(rs.lastInsertRowid);
}

/** Inserts a pending merge suggestion. */
export async function insertMergeSuggestion(ex: Exec, s: Omit<MergeSuggestionRow, "status"> & { createdAt: string }): Promise<void> {
  await ex.execute({
    sql: "INSERT INTO case_merge_suggestions (proposal_id, run_id, prior_run_id, basis, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
    args: [s.proposalId, s.runId, s.priorRunId, s.basis, s.createdAt],
  });
}

/** The suggestion bound to a proposal. */
export async function mergeSuggestionByProposal(ex: Exec, proposalId: number): Promise<MergeSuggestionRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM case_merge_suggestions WHERE proposal_id = ?", args: [proposalId] });
  const r = rs.rows[0];
  if (!r) return undefined;
  return { proposalId: Number(r.proposal_id), runId: Number(r.run_id), priorRunId: Number(r.prior_run_id), basis: String(r.basis) as MergeSuggestionRow["basis"], status: String(r.status) as MergeSuggestionRow["status"] };
}

/** Moves a suggestion to approved or rejected. */
export async function decideMergeSuggestion(ex: Exec, proposalId: number, status: "approved" | "rejected"): Promise<void> {
  await ex.execute({ sql: "UPDATE case_merge_suggestions SET status = ? WHERE proposal_id = ? AND status = 'pending'", args: [status, proposalId] });
}

/** True when a merge suggestion was already filed for the run (one re-ask question per case). */
export async function hasMergeSuggestion(ex: Exec, runId: number): Promise<boolean> {
  const rs = await ex.execute({ sql: "SELECT 1 FROM case_merge_suggestions WHERE run_id = ? LIMIT 1", args: [runId] });
  return rs.rows.length > 0;
}

/** The merge suggestion filed for a run (one per run at most). */
export async function mergeSuggestionByRun(ex: Exec, runId: number): Promise<MergeSuggestionRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT proposal_id FROM case_merge_suggestions WHERE run_id = ? ORDER BY proposal_id LIMIT 1", args: [runId] });
  return rs.rows.length ? await mergeSuggestionByProposal(ex, Number(rs.rows[0]!.proposal_id)) : undefined;
}

/** Records the basis a later vendor merge revealed (SPEC §6 `source: crm_merge`). */
export async function setMergeSuggestionBasis(ex: Exec, proposalId: number, basis: MergeSuggestionRow["basis"]): Promise<void> {
  await ex.execute({ sql: "UPDATE case_merge_suggestions SET basis = ? WHERE proposal_id = ?", args: [basis, proposalId] });
}
