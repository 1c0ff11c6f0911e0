/**
 * `POST /ump/forget` (SPEC §3, §4.9; UMP notes): `{id, reason?, hard?}` →
 * `{result: tombstoned | erased}`. Forgetting covers the record's whole
 * lineage (every version it supersedes or is superseded by), so no past
 * version stays recallable.
 *
 * - Soft: each version gets `lifecycle.status: tombstoned` (signed again), a
 *   tombstone row is written for its chunk, and the chunk stops being served
 *   once no live record is left on it. Nothing is deleted.
 * - Hard: the erasure path. Chunks that no other record shares are deleted
 *   (vector, graph references, chunk row, tombstone, audit row, and their
 *   record rows); records on shared chunks lose only their rows. When the
 *   governance erasure service is wired it performs the chunk deletion.
 *
 * Each forget commits with one `ump_forget` audit row. The client's `reason` is free text and the audit log is
 * append-only (no erasure reaches it), so the row carries its salted hash (`reason_ref`, src/audit/identifier-ref.ts)
 * and the tombstone rows a fixed reason, never the text itself (issue 35).
 */
import { MemoryError } from "../core/errors.ts";
import { eraseInTx } from "../erasure/erase-in-tx.ts";
import { insertTombstone, softTombstoneReason } from "../store/tombstones.ts";
import { deleteUmpRow, umpRowsOfChunk } from "../store/ump-records.ts";
import { requireRead, requireVerb, type UmpActor } from "./actor.ts";
import { findRecord, loadRecord, type LoadedRecord } from "./load-record.ts";
import { sealRecord } from "./record-rows.ts";
import { rewriteRecords } from "./store-record.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { parseWith } from "../core/schema.ts";
import { UmpForgetBody, type UmpForgetInput } from "./ump-schema.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** Forgets one record and its lineage. */
export async function forget(d: UmpDeps, actor: UmpActor, raw: UmpForgetInput): Promise<{ result: "tombstoned" | "erased" }> {
  const { id, reason = "forget", hard = false } = parseWith(UmpForgetBody, raw);
  const first = await loadRecord(routedReader(d.db), id);
  if (first.row.status === "tombstoned" && !hard) throw new MemoryError("not_found", "record not found", { id });
  requireRead(actor, first.record.scope);
  requireVerb(actor, "write", first.record.scope);
  const lineage = await collectLineage(d, first);
  for (const l of lineage) requireVerb(actor, "write", l.record.scope);
  const reasonRef = await d.audit.ref("forget_reason", reason);
  if (hard) await erase(d, lineage, reasonRef, actor);
  else await tombstone(d, lineage, reasonRef, actor);
  for (const l of lineage) d.events.emit({ kind: hard ? "erased" : "tombstoned", id: l.record.id, scope: l.record.scope });
  return { result: hard ? "erased" : "tombstoned" };
}

/** Every version connected to `start` through `supersedes` / `superseded_by`. */
export async function collectLineage(d: UmpDeps, start: LoadedRecord): Promise<LoadedRecord[]> {
  const seen = new Map<string, LoadedRecord>([[start.record.id, start]]);
  const queue = [start];
  while (queue.length) {
    const cur = queue.shift()!;
    for (const next of [...(cur.record.supersedes ?? []), ...(cur.record.superseded_by ?? [])]) {
      if (seen.has(next)) continue;
      const found = await findRecord(routedReader(d.db), next);
      if (!found) continue;
      seen.set(next, found);
      queue.push(found);
    }
  }
  return [...seen.values()];
}

async function tombstone(d: UmpDeps, lineage: LoadedRecord[], reasonRef: string, actor: UmpActor): Promise<void> {
  const seed = await d.keys();
  const live = lineage.filter((l) => l.row.status !== "tombstoned");
  const updated = live.map((l) => sealRecord({ ...l.record, lifecycle: { ...(l.record.lifecycle ?? {}), status: "tombstoned" } }, seed, d.didOf));
  await rewriteRecords(d, updated, { action: "ump_forget", actor: actor.subject, detail: { ids: live.map((l) => l.record.id), hard: false, reason_ref: reasonRef } },
    async (tx) => {
      const at = d.clock().toISOString();
      for (const l of live) {
        await insertTombstone(tx, { chunkId: l.row.chunkId, domain: l.domain, contentHash: l.contentHash, reason: softTombstoneReason("ump_forget", l.record.id), deletedAt: at });
      }
    });
}

async function erase(d: UmpDeps, lineage: LoadedRecord[], reasonRef: string, actor: UmpActor): Promise<void> {
  const ids = new Set(lineage.map((l) => l.record.id));
  const chunks = [...new Set(lineage.map((l) => l.row.chunkId))];
  const exclusive: number[] = [];
  for (const c of chunks) if ((await umpRowsOfChunk(routedReader(d.db), c)).every((r) => ids.has(r.id))) exclusive.push(c);
  const shared = lineage.filter((l) => !exclusive.includes(l.row.chunkId)).map((l) => l.record.id);
  await d.db.write(async (tx) => {
    for (const id of shared) await deleteUmpRow(tx, id);
    // The governance erasure executor: tombstones, vectors, relation references, chunks, proposals promoted
    // to them, consolidation links, and (through the UMP store) their record rows and vault links.
    if (exclusive.length) await eraseInTx(tx, { chunkIds: exclusive, reason: "ump_forget", now: d.clock().toISOString() });
    await d.audit.append(tx, { action: "ump_forget", actor: actor.subject, target: lineage[0].record.id, detail: { ids: [...ids], hard: true, reason_ref: reasonRef, chunks: exclusive } });
  });
  for (const c of exclusive) for (const h of d.write.indexHooks) h.removed(c);
  for (const id of ids) d.index.remove(id);
}
