/**
 * Tombstone rows: one per deletion (SPEC §2.12, §3), and one per soft UMP forget or retention expiry (SPEC §3 "UMP
 * record | POST /ump/forget | Soft or hard erase | Tombstone and audit row"). A soft tombstone retires a record, not its
 * chunk: the chunk stays stored (another record may still use it) and the reason names the record
 * (`ump_forget <id>`, `ump_retention <id>`), which is how `check-consistency` tells it from a deletion (issue 35).
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** What retired a record without deleting its chunk. */
export type SoftTombstoneKind = "ump_forget" | "ump_retention";

/** The reason of a soft tombstone: the kind and the record it retired. */
export function softTombstoneReason(kind: SoftTombstoneKind, recordId: string): string {
  return `${kind} ${recordId}`;
}

/** SQL true for a soft tombstone's reason (on table alias `t`); its record id is `substr(t.reason, instr(t.reason, ' ') + 1)`. */
export const SOFT_TOMBSTONE_SQL = "(t.reason LIKE 'ump\\_forget urn:%' ESCAPE '\\' OR t.reason LIKE 'ump\\_retention urn:%' ESCAPE '\\')";

/** Records a deletion. */
export async function insertTombstone(
  ex: Exec,
  t: { chunkId: number; domain: string; contentHash: string; reason: string; deletedAt: string },
): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: "INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at) VALUES (?, ?, ?, ?, ?)",
    args: [t.chunkId, t.domain, t.contentHash, t.reason, t.deletedAt],
  });
  return Number(rs.lastInsertRowid);
}

/** Counts tombstones. */
export async function countTombstones(ex: Exec): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute("SELECT COUNT(*) AS n FROM tombstones");
  return Number(rs.rows[0].n);
}
