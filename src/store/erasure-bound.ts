/**
 * Rows that hang off an erased chunk or proposal (issue 35; SPEC §1 item 6, §3 erasure row): purge and DSAR remove
 * them in the same transaction, every id list cut at 900 (SPEC §8). A `channel/out` envelope, an inbound channel
 * message, a merge suggestion and a KCS translation (and its request) are bound to their proposal: its text is the
 * proposal's text, or it names the conversation the proposal came from. A claim cites chunks as evidence: once its
 * evidence is erased the claim, whose JSON states what the evidence said, goes too, out of any claim batch it was in.
 */
import type { Exec } from "./db.ts";
import { idParts } from "./erasure.ts";

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Deleted row counts by table. */
export type TableCounts = Record<string, number>;

/** The counts that are not zero, keys in order (what a reply, an audit row and a certificate list). */
export function nonZero(c: TableCounts): TableCounts {
  return Object.fromEntries(Object.entries(c).filter(([, n]) => n > 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Adds `more` into `into`. */
export function addCounts(into: TableCounts, more: TableCounts): TableCounts {
  for (const [k, v] of Object.entries(more)) into[k] = (into[k] ?? 0) + v;
  return into;
}

async function deleteWhereIn(ex: Exec, table: string, column: string, ids: readonly number[]): Promise<number> {
  let n = 0;
  for (const part of idParts(ids)) n += (await ex.execute({ sql: `DELETE FROM ${table} WHERE ${column} IN (${marks(part.length)})`, args: part })).rowsAffected;
  return n;
}

/** Deletes the `channel/out` envelopes, inbound messages, merge suggestions and KCS translations (and requests) bound to the proposals. */
export async function deleteRowsOfProposals(ex: Exec, proposalIds: readonly number[]): Promise<TableCounts> {
  return {
    channel_out: await deleteWhereIn(ex, "channel_out", "proposal_id", proposalIds),
    channel_messages: await deleteWhereIn(ex, "channel_messages", "proposal_id", proposalIds),
    case_merge_suggestions: await deleteWhereIn(ex, "case_merge_suggestions", "proposal_id", proposalIds),
    kcs_translations: await deleteWhereIn(ex, "kcs_translations", "proposal_id", proposalIds),
    kcs_translation_requests: await deleteWhereIn(ex, "kcs_translation_requests", "proposal_id", proposalIds),
  };
}

/** Ids of claims that cite any of `chunkIds` as evidence. */
export async function claimIdsCiting(ex: Exec, chunkIds: readonly number[]): Promise<number[]> {
  const out = new Set<number>();
  for (const part of idParts(chunkIds)) {
    const rs = await ex.execute({ sql: `SELECT DISTINCT claim_id FROM claim_evidence WHERE chunk_id IN (${marks(part.length)})`, args: part });
    for (const r of rs.rows) out.add(Number(r.claim_id));
  }
  return [...out].sort((a, b) => a - b);
}

/** Deletes claims with their evidence rows and batch memberships; a batch left with no member goes too. */
export async function deleteClaims(ex: Exec, claimIds: readonly number[]): Promise<TableCounts> {
  const batches = new Set<number>();
  for (const part of idParts(claimIds)) {
    const rs = await ex.execute({ sql: `SELECT DISTINCT batch_id FROM claim_batch_members WHERE claim_id IN (${marks(part.length)})`, args: part });
    for (const r of rs.rows) batches.add(Number(r.batch_id));
  }
  const out: TableCounts = {
    claim_evidence: await deleteWhereIn(ex, "claim_evidence", "claim_id", claimIds),
    claim_batch_members: await deleteWhereIn(ex, "claim_batch_members", "claim_id", claimIds),
    claims: await deleteWhereIn(ex, "claims", "id", claimIds),
  };
  let n = 0;
  for (const id of batches) {
    n += (await ex.execute({ sql: "DELETE FROM claim_batches WHERE id = ? AND NOT EXISTS (SELECT 1 FROM claim_batch_members WHERE batch_id = ?)", args: [id, id] })).rowsAffected;
  }
  out.claim_batches = n;
  return out;
}

/** Deletes claim batches with their member rows (the claims stay). */
export async function deleteClaimBatches(ex: Exec, batchIds: readonly number[]): Promise<TableCounts> {
  return {
    claim_batch_members: await deleteWhereIn(ex, "claim_batch_members", "batch_id", batchIds),
    claim_batches: await deleteWhereIn(ex, "claim_batches", "id", batchIds),
  };
}
