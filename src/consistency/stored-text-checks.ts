/**
 * Two checks of `cairn check-consistency` for rows an export or a read would
 * trip on (the text-field rule, docs/limits.md "Text fields"):
 * - `stored_text_nul`: a stored text holds a NUL (written before every door
 *   refused it); the detail names `table.column rowid, …`;
 * - `ump_record_unverifiable`: a UMP record no longer verifies against what
 *   is read back (the export leaves it out and names it in `skipped`); the
 *   detail names the record ids, the sample their chunk ids.
 */
import { nulTextColumns } from "../store/consistency.ts";
import { getChunk } from "../store/chunks.ts";
import type { Db } from "../store/db.ts";
import { dbsOf, routedReader } from "../store/domain-dbs.ts";
import { listUmpRowsAfter } from "../store/ump-records.ts";
import { recordOfRow } from "../ump/record-rows.ts";
import { verifyRecordAsync } from "../ump/sign.ts";

/** One check's outcome (the shape of check-consistency's `ConsistencyCheck`, declared here to keep imports one-way). */
interface ConsistencyCheck {
  name: string;
  ok: boolean;
  count: number;
  sample?: number[];
  detail?: string;
}

/** `stored_text_nul` over every database. */
export async function storedTextNul(db: Db): Promise<ConsistencyCheck> {
  const cols = (await Promise.all(dbsOf(db).map((d) => nulTextColumns(d.client)))).flat();
  const count = cols.reduce((n, c) => n + c.count, 0);
  if (count === 0) return { name: "stored_text_nul", ok: true, count: 0 };
  return {
    name: "stored_text_nul", ok: false, count, sample: cols[0]!.sample,
    detail: cols.map((c) => `${c.column} ${c.sample.join(", ")}${c.count > c.sample.length ? ", …" : ""}`).join("; "),
  };
}

/** `ump_record_unverifiable`: every live record verified as the export would (hash and signature). */
export async function umpRecordUnverifiable(db: Db, limit = 10): Promise<ConsistencyCheck> {
  const bad: { id: string; chunk: number; reason: string }[] = [];
  let count = 0;
  for (let after = 0; ;) {
    const rows = await listUmpRowsAfter(db.client, after, 500);
    for (const row of rows) {
      if (row.status === "tombstoned") continue;
      const chunk = await getChunk(routedReader(db), row.chunkId);
      if (!chunk) continue;
      let reason: string | undefined;
      try {
        const v = await verifyRecordAsync(recordOfRow(row, chunk.content));
        if (!v.ok) reason = v.reason;
      } catch {
        reason = "unreadable";
      }
      if (reason === undefined) continue;
      count++;
      if (bad.length < limit) bad.push({ id: row.id, chunk: row.chunkId, reason });
    }
    if (rows.length < 500) break;
    after = rows[rows.length - 1]!.seq;
  }
  if (count === 0) return { name: "ump_record_unverifiable", ok: true, count: 0 };
  return {
    name: "ump_record_unverifiable", ok: false, count, sample: bad.map((b) => b.chunk),
    detail: bad.map((b) => `${b.id} (${b.reason})`).join(", ") + (count > bad.length ? ", …" : ""),
  };
}
