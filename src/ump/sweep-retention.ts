/**
 * `consent.retention` (UMP notes "Record"): a record whose retention
 * (counted from `time.created`) has run out is tombstoned, with a tombstone
 * row for its chunk and one audit row per sweep. Recall already hides it
 * from the moment the deadline passes (the index knows the deadline); the
 * sweep makes the state durable. It runs before UMP reads and at boot.
 */
import { getChunk } from "../store/chunks.ts";
import { insertTombstone, softTombstoneReason } from "../store/tombstones.ts";
import { listExpiredUmpRows } from "../store/ump-records.ts";
import { recordOfRow, sealRecord } from "./record-rows.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { rewriteRecords } from "./store-record.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** Tombstones every record past its retention; returns their ids. */
export async function sweepRetention(d: UmpDeps): Promise<string[]> {
  const done: string[] = [];
  const seed = await d.keys();
  for (;;) {
    const now = d.clock().toISOString();
    const rows = await listExpiredUmpRows(d.db.client, now, 200);
    if (!rows.length) return done;
    const updated: UmpRecord[] = [];
    const tombstones: { chunkId: number; domain: string; contentHash: string; id: string }[] = [];
    for (const row of rows) {
      const chunk = await getChunk(routedReader(d.db), row.chunkId);
      const record = recordOfRow(row, chunk?.content ?? "");
      updated.push(sealRecord({ ...record, lifecycle: { ...(record.lifecycle ?? {}), status: "tombstoned" } }, seed, d.didOf));
      if (chunk) tombstones.push({ chunkId: chunk.id, domain: chunk.domain, contentHash: chunk.contentHash, id: row.id });
    }
    await rewriteRecords(d, updated, { action: "ump_retention_expired", detail: { ids: updated.map((r) => r.id) } }, async (tx) => {
      for (const t of tombstones) {
        await insertTombstone(tx, { chunkId: t.chunkId, domain: t.domain, contentHash: t.contentHash, reason: softTombstoneReason("ump_retention", t.id), deletedAt: now });
      }
    });
    for (const r of updated) d.events.emit({ kind: "tombstoned", id: r.id, scope: r.scope });
    done.push(...updated.map((r) => r.id));
  }
}
