/** Tombstone rows: one per deletion (SPEC §2.12, §3). */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

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
