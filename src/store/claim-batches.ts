/** Claim batches and their members (SPEC §2.12; migration 172). */
import type { Row } from "@libsql/client";
import type { ClaimStatus } from "./claims.ts";
import type { Exec } from "./db.ts";

/** A stored batch with its member claim ids in order. */
export interface ClaimBatchRow {
  id: number;
  name?: string;
  status: ClaimStatus;
  createdAt: string;
  verifiedAt?: string;
  claimIds: number[];
}

/** The ids among `ids` that are stored claims. */
export async function existingClaimIds(ex: Exec, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rs = await ex.execute({ sql: `SELECT id FROM claims WHERE id IN (${ids.map(() => "?").join(",")})`, args: [...ids] });
  return new Set(rs.rows.map((r) => Number(r.id)));
}

/** Inserts a batch and its members (inside the caller's transaction); returns its id. */
export async function insertClaimBatch(ex: Exec, b: { name?: string; createdAt: string; claimIds: readonly number[] }): Promise<number> {
  const rs = await ex.execute({ sql: "INSERT INTO claim_batches (name, status, created_at) VALUES (?, 'filed', ?)", args: [b.name ?? null, b.createdAt] });
  const id = Number(rs.lastInsertRowid);
  for (const [i, claimId] of b.claimIds.entries()) {
    await ex.execute({ sql: "INSERT INTO claim_batch_members (batch_id, position, claim_id) VALUES (?, ?, ?)", args: [id, i, claimId] });
  }
  return id;
}

async function membersOf(ex: Exec, ids: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rs = await ex.execute({
    sql: `SELECT batch_id, claim_id FROM claim_batch_members WHERE batch_id IN (${ids.map(() => "?").join(",")}) ORDER BY batch_id, position`,
    args: [...ids],
  });
  for (const r of rs.rows) out.get(Number(r.batch_id))?.push(Number(r.claim_id));
  return out;
}

function batchOf(r: Row, claimIds: number[]): ClaimBatchRow {
  const b: ClaimBatchRow = { id: Number(r.id), status: String(r.status) as ClaimStatus, createdAt: String(r.created_at), claimIds };
  if (r.name !== null) b.name = String(r.name);
  if (r.verified_at !== null) b.verifiedAt = String(r.verified_at);
  return b;
}

/** One batch with its members. */
export async function getClaimBatch(ex: Exec, id: number): Promise<ClaimBatchRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM claim_batches WHERE id = ?", args: [id] });
  if (!rs.rows[0]) return undefined;
  return batchOf(rs.rows[0], (await membersOf(ex, [id])).get(id) ?? []);
}

/** Batches after an id, oldest first, optionally of one status. */
export async function listClaimBatches(ex: Exec, o: { after: number; limit: number; status?: ClaimStatus }): Promise<ClaimBatchRow[]> {
  const rs = await ex.execute({
    sql: `SELECT * FROM claim_batches WHERE id > ?${o.status ? " AND status = ?" : ""} ORDER BY id LIMIT ?`,
    args: o.status ? [o.after, o.status, o.limit] : [o.after, o.limit],
  });
  const members = await membersOf(ex, rs.rows.map((r) => Number(r.id)));
  return rs.rows.map((r) => batchOf(r, members.get(Number(r.id)) ?? []));
}

/** Records a batch verify's outcome. */
export async function setClaimBatchOutcome(ex: Exec, id: number, o: { status: ClaimStatus; at: string }): Promise<void> {
  await ex.execute({ sql: "UPDATE claim_batches SET status = ?, verified_at = ? WHERE id = ?", args: [o.status, o.at, id] });
}
