/** Audit log rows (SPEC §2.12): append, page, and scan in chain order. */
import type { Exec } from "./db.ts";

/** One stored audit row. */
export interface AuditRow {
  id: number;
  ts: string;
  action: string;
  actor?: string;
  target?: string;
  detail: Record<string, unknown>;
  prevHash: string;
  hash: string;
}

function toRow(r: Record<string, unknown>): AuditRow {
  const row: AuditRow = {
    id: Number(r.id), ts: String(r.ts), action: String(r.action), detail: JSON.parse(String(r.detail)),
    prevHash: String(r.prev_hash), hash: String(r.hash),
  };
  if (r.actor !== null && r.actor !== undefined) row.actor = String(r.actor);
  if (r.target !== null && r.target !== undefined) row.target = String(r.target);
  return row;
}

/** The chain head (last row's id and hash), or undefined for an empty log. */
export async function auditHead(ex: Exec): Promise<{ id: number; hash: string } | undefined> {
  const rs = await ex.execute("SELECT id, hash FROM audit_log ORDER BY id DESC LIMIT 1");
  return rs.rows.length ? { id: Number(rs.rows[0].id), hash: String(rs.rows[0].hash) } : undefined;
}

/** Inserts fully-computed rows, many per statement (batch ingest: one audit row per created chunk). */
export async function insertAuditRows(ex: Exec, rows: readonly AuditRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const part = rows.slice(i, i + 200);
    await ex.execute({
      sql: `INSERT INTO audit_log (id, ts, action, actor, target, detail, prev_hash, hash) VALUES ${part.map(() => "(?, ?, ?, ?, ?, ?, ?, ?)").join(", ")}`,
      args: part.flatMap((r) => [r.id, r.ts, r.action, r.actor ?? null, r.target ?? null, JSON.stringify(r.detail), r.prevHash, r.hash]),
    });
  }
}

/** A page of rows in id order after `afterId`. */
export async function listAuditRows(ex: Exec, afterId: number, limit: number, action?: string): Promise<AuditRow[]> {
  const rs = action === undefined
    ? await ex.execute({ sql: "SELECT * FROM audit_log WHERE id > ? ORDER BY id LIMIT ?", args: [afterId, limit] })
    : await ex.execute({ sql: "SELECT * FROM audit_log WHERE id > ? AND action = ? ORDER BY id LIMIT ?", args: [afterId, action, limit] });
  return rs.rows.map((r) => toRow(r as unknown as Record<string, unknown>));
}

/** Reads one row by id. */
export async function getAuditRow(ex: Exec, id: number): Promise<AuditRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM audit_log WHERE id = ?", args: [id] });
  return rs.rows.length ? toRow(rs.rows[0] as unknown as Record<string, unknown>) : undefined;
}

/** Reads the detail column raw (verification must hash the stored bytes, not a re-serialisation). */
export async function listAuditRaw(ex: Exec, afterId: number, limit: number): Promise<{
  id: number; ts: string; action: string; actor: string | null; target: string | null; detail: string; prev_hash: string; hash: string;
}[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM audit_log WHERE id > ? ORDER BY id LIMIT ?", args: [afterId, limit] });
  return rs.rows.map((r) => ({
    id: Number(r.id), ts: String(r.ts), action: String(r.action), actor: r.actor === null ? null : String(r.actor),
    target: r.target === null ? null : String(r.target), detail: String(r.detail), prev_hash: String(r.prev_hash), hash: String(r.hash),
  }));
}

/** Counts rows. */
export async function countAuditRows(ex: Exec): Promise<number> {
  const rs = await ex.execute("SELECT COUNT(*) AS n FROM audit_log");
  return Number(rs.rows[0].n);
}
