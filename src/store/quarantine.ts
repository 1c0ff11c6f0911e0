/** Flagged (quarantined) chunk rows (SPEC §1 Trust rules, §4.4). */
import { rowToChunk } from "./chunks.ts";
import type { Chunk } from "../core/types.ts";
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** Flagged chunks in id order after `afterId`. */
export async function listFlagged(ex: Exec, afterId: number, limit: number): Promise<Chunk[]> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT * FROM chunks WHERE flagged = 1 AND id > ? ORDER BY id LIMIT ?", args: [afterId, limit] });
  return rs.rows.map(rowToChunk);
}

/** Sets or clears the flag; returns true when a row changed. */
export async function setFlagged(ex: Exec, id: number, flagged: boolean): Promise<boolean> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "UPDATE chunks SET flagged = ? WHERE id = ? AND flagged = ?", args: [flagged ? 1 : 0, id, flagged ? 0 : 1] });
  return rs.rowsAffected > 0;
}
