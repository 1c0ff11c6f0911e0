/** Database posture reads for `/health/db` and `/stats` (SPEC §4.8). */
import type { Exec } from "./db.ts";

/** Journal mode, synchronous level, size and pending WAL pages. */
export async function readDbPosture(ex: Exec, local: boolean): Promise<{
  journalMode: string;
  synchronous?: number;
  dbBytes: number;
  walPagesPending?: number;
}> {
  const jm = await ex.execute("PRAGMA journal_mode");
  const pc = await ex.execute("PRAGMA page_count");
  const ps = await ex.execute("PRAGMA page_size");
  const out: { journalMode: string; synchronous?: number; dbBytes: number; walPagesPending?: number } = {
    journalMode: String(jm.rows[0]?.[0] ?? "unknown").toLowerCase(),
    dbBytes: Number(pc.rows[0]?.[0] ?? 0) * Number(ps.rows[0]?.[0] ?? 0),
  };
  if (local) {
    const sy = await ex.execute("PRAGMA synchronous");
    out.synchronous = Number(sy.rows[0]?.[0] ?? 0);
    // PASSIVE never blocks writers; it reports log frames vs checkpointed frames.
    const cp = await ex.execute("PRAGMA wal_checkpoint(PASSIVE)");
    const row = cp.rows[0];
    if (row) out.walPagesPending = Math.max(0, Number(row[1]) - Number(row[2]));
  }
  return out;
}

/** Reads a store_meta value. */
export async function getMeta(ex: Exec, key: string): Promise<string | undefined> {
  const rs = await ex.execute({ sql: "SELECT value FROM store_meta WHERE key = ?", args: [key] });
  return rs.rows.length ? String(rs.rows[0].value) : undefined;
}

/** Writes a store_meta value. */
export async function setMeta(ex: Exec, key: string, value: string): Promise<void> {
  await ex.execute({
    sql: "INSERT INTO store_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
    args: [key, value],
  });
}

/** A cheap liveness probe of the database. */
export async function ping(ex: Exec): Promise<void> {
  await ex.execute("SELECT 1");
}
