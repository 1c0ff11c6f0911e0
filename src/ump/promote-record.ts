/**
 * Approval of a proposal a UMP door filed under `review` posture (SPEC §1
 * write posture, §3, §4.9; issue 22 item 1). The door handed out the sealed
 * record's id; on approval that same record is stored on the promoted chunk,
 * in the approval's transaction, so the id resolves from then on. A revise
 * proposal also retires the version it supersedes (re-sealed with
 * `valid_to` and `superseded_by`), as a direct revise would have.
 */
import { getChunk } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { getUmpRow, insertUmpRow, updateUmpRow } from "../store/ump-records.ts";
import { findProposalByUmpId, type ProposalRow } from "../store/proposals.ts";
import { MemoryError } from "../core/errors.ts";
import { recordOfRow, rowOfRecord, sealRecord } from "./record-rows.ts";
import { refreshIndex } from "./store-record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";

/** The promotion hook the review service runs inside the approval transaction. */
export async function promoteRecord(d: UmpDeps, tx: Exec, p: ProposalRow, chunkId: number): Promise<(() => Promise<void>) | void> {
  if (p.umpId === undefined || p.umpRecord === undefined) return;
  const record = JSON.parse(p.umpRecord) as UmpRecord;
  if (await getUmpRow(tx, record.id)) return;
  const now = d.clock().toISOString();
  const touched = [record.id];
  const seed = await d.keys();
  for (const oldId of record.supersedes ?? []) {
    const prev = await getUmpRow(tx, oldId);
    // Only a current version is retired; one already superseded or forgotten keeps its lineage.
    if (!prev || prev.status === "tombstoned" || prev.validTo !== undefined) continue;
    const chunk = await getChunk(tx, prev.chunkId);
    if (!chunk) continue;
    const old = recordOfRow(prev, chunk.content);
    const until = Math.max(Date.parse(record.time.valid_from), Date.parse(old.time.valid_from));
    const retired = sealRecord({ ...old, time: { ...old.time, valid_to: new Date(until).toISOString() }, superseded_by: [...(old.superseded_by ?? []), record.id] }, seed, d.didOf);
    await updateUmpRow(tx, rowOfRecord(retired, prev.chunkId), now);
    touched.push(oldId);
  }
  await insertUmpRow(tx, rowOfRecord(record, chunkId), now);
  await d.audit.append(tx, { action: "ump_approve", target: record.id, detail: { chunk_id: chunkId, proposal_id: p.id, kind: record.kind } });
  return async () => {
    await refreshIndex(d, touched);
    d.events.emit({ kind: record.supersedes?.length ? "revised" : "created", id: record.id, scope: record.scope });
  };
}

/** A read of an id a UMP door handed out under review: 404 `review_pending` while the proposal is pending. */
export async function pendingReview(d: UmpDeps, id: string): Promise<void> {
  const p = await findProposalByUmpId(d.db.client, id);
  if (p?.status === "pending") {
    throw new MemoryError("review_pending", "The record is pending review; it resolves under this id once approved", { id, review: { status: "pending", proposal_id: p.id } }, 404);
  }
}
