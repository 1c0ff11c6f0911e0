/**
 * The data-subject erasure's content match beyond chunks and proposals (issue 35; SPEC §1 item 6, §3 erasure row,
 * §4.4): rows of the workflow, channel, claim, UMP and file-source tables whose text contains the subject's email
 * or match text, ASCII case-insensitive as the chunk match is. JSON columns are matched on the needle as written and
 * as JSON escapes it, so a quote or backslash in the needle still finds its row.
 */
import type { Exec } from "./db.ts";
import { idParts } from "./erasure.ts";
import { localOf } from "./domain-dbs.ts";

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** `(col1 contains n1 OR col2 contains n1 OR …)` over every needle and its JSON-escaped form, or undefined for no needle. */
export function matchWhere(cols: readonly string[], needles: readonly string[]): { sql: string; args: string[] } | undefined {
  const forms = [...new Set(needles.flatMap((n) => [n, JSON.stringify(n).slice(1, -1)]))];
  if (!forms.length) return undefined;
  const parts: string[] = [];
  const args: string[] = [];
  for (const f of forms) for (const c of cols) {
    parts.push(`instr(lower(coalesce(${c}, '')), lower(?)) > 0`);
    args.push(f);
  }
  return { sql: `(${parts.join(" OR ")})`, args };
}

async function select(ex: Exec, table: string, cols: string, match: readonly string[], needles: readonly string[]) {
  const m = matchWhere(match, needles);
  if (!m) return [];
  return (await ex.execute({ sql: `SELECT ${cols} FROM ${table} WHERE ${m.sql} ORDER BY 1`, args: m.args })).rows;
}

/** Outbox events whose payload contains a needle. */
export async function eventsMatching(ex: Exec, needles: readonly string[]): Promise<{ id: number; payload: string }[]> {
  return (await select(ex, "workflow_events", "id, payload", ["payload"], needles)).map((r) => ({ id: Number(r.id), payload: String(r.payload) }));
}

/** Rewrites an event's payload (the erasure's redacted form). */
export async function setEventPayload(ex: Exec, id: number, payload: string): Promise<void> {
  await ex.execute({ sql: "UPDATE workflow_events SET payload = ? WHERE id = ?", args: [payload, id] });
}

/** A run's subject-bearing columns. */
export interface RunText {
  id: number;
  stateJson: string;
  caseJson: string | null;
  conversationRef: string | null;
}

/** Runs whose state, case record or bound conversation contains a needle. */
export async function runsMatching(ex: Exec, needles: readonly string[]): Promise<RunText[]> {
  const rows = await select(ex, "workflow_runs", "id, state_json, case_json, conversation_ref", ["state_json", "case_json", "conversation_ref"], needles);
  return rows.map((r) => ({
    id: Number(r.id), stateJson: String(r.state_json), caseJson: r.case_json === null ? null : String(r.case_json),
    conversationRef: r.conversation_ref === null ? null : String(r.conversation_ref),
  }));
}

/** Rewrites a run's state and case record; `unbind` also forgets its channel conversation. */
export async function setRunErased(ex: Exec, r: { id: number; stateJson: string; caseJson: string | null; unbind: boolean }): Promise<void> {
  await ex.execute({
    sql: `UPDATE workflow_runs SET state_json = ?, case_json = ?,
            channel_kind = CASE WHEN ? THEN NULL ELSE channel_kind END, conversation_ref = CASE WHEN ? THEN NULL ELSE conversation_ref END
          WHERE id = ?`,
    args: [r.stateJson, r.caseJson, r.unbind ? 1 : 0, r.unbind ? 1 : 0, r.id],
  });
}

/** `channel/out` envelopes whose text or conversation contains a needle (their proposals go with them). */
export async function channelOutMatching(ex: Exec, needles: readonly string[]): Promise<{ id: number; proposalId: number }[]> {
  return (await select(ex, "channel_out", "id, proposal_id", ["text", "conversation_ref"], needles)).map((r) => ({ id: Number(r.id), proposalId: Number(r.proposal_id) }));
}

/** Inbound channel messages whose conversation or message id contains a needle. */
export async function channelMessagesMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  return (await select(ex, "channel_messages", "id", ["conversation_ref", "external_id"], needles)).map((r) => Number(r.id));
}

/** Claims whose JSON or verify reasons contain a needle. */
export async function claimsMatching(ex: Exec, needles: readonly string[]): Promise<{ id: number; claimJson: string }[]> {
  return (await select(ex, "claims", "id, claim_json", ["claim_json", "reasons_json"], needles)).map((r) => ({ id: Number(r.id), claimJson: String(r.claim_json) }));
}

/** Claim batches whose name contains a needle. */
export async function claimBatchesMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  return (await select(ex, "claim_batches", "id", ["name"], needles)).map((r) => Number(r.id));
}

/** Chunk ids of UMP records whose record JSON (title, scope, tags: everything but the text) contains a needle. */
export async function umpChunksMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  return [...new Set((await select(ex, "ump_records", "chunk_id", ["record", "owner", "agent", "project"], needles)).map((r) => Number(r.chunk_id)))];
}

/** File sources whose path or record id contains a needle, with the chunks they link. */
export async function fileSourcesMatching(ex: Exec, needles: readonly string[]): Promise<{ ids: number[]; chunkIds: number[] }> {
  const ids = (await select(ex, "file_sources", "id", ["path", "record_id"], needles)).map((r) => Number(r.id));
  const chunks = new Set<number>();
  for (const part of idParts(ids)) {
    const rs = await ex.execute({ sql: `SELECT chunk_id FROM file_source_chunks WHERE source_id IN (${marks(part.length)})`, args: part });
    for (const r of rs.rows) chunks.add(Number(r.chunk_id));
  }
  return { ids, chunkIds: [...chunks] };
}

/** Deletes rows of `table` by id, 900 per statement. */
export async function deleteIds(ex: Exec, table: "channel_out" | "channel_messages" | "file_sources" | "ump_feedback", ids: readonly number[]): Promise<number> {
  let n = 0;
  for (const part of idParts(ids)) {
    if (table === "file_sources") await ex.execute({ sql: `DELETE FROM file_source_chunks WHERE source_id IN (${marks(part.length)})`, args: part });
    n += (await ex.execute({ sql: `DELETE FROM ${table} WHERE id IN (${marks(part.length)})`, args: part })).rowsAffected;
  }
  return n;
}

/** UMP feedback rows whose session or actor contains a needle. */
export async function umpFeedbackMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  return (await select(ex, "ump_feedback", "id", ["session", "actor"], needles)).map((r) => Number(r.id));
}

/**
 * Tombstone reasons that carry a client's free text naming the subject — a hard UMP forget before issue 35 stored
 * `ump_forget: <reason>` — become `ump_forget`, as they are written now; returns rows rewritten. Every other reason is
 * written by Cairn (a fixed word, or a soft tombstone's record id) and is left as it is.
 */
export async function redactTombstoneReasons(ex: Exec, needles: readonly string[]): Promise<number> {
  const m = matchWhere(["reason"], needles);
  if (!m) return 0;
  const sql = `UPDATE tombstones SET reason = 'ump_forget' WHERE reason LIKE 'ump\\_forget: %' ESCAPE '\\' AND ${m.sql}`;
  return (await localOf(ex).execute({ sql, args: m.args })).rowsAffected;
}

/** Audit rows whose actor, target or detail contains a needle: append-only, so an erasure counts them and leaves them. */
export async function auditRowsNaming(ex: Exec, needles: readonly string[]): Promise<number> {
  const m = matchWhere(["actor", "target", "detail"], needles);
  if (!m) return 0;
  return Number((await ex.execute({ sql: `SELECT COUNT(*) AS n FROM audit_log WHERE ${m.sql}`, args: m.args })).rows[0].n);
}
