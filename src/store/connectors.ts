/**
 * The connector registry rows (issue 15; SPEC §2.12). States: `registered` (never synced), `syncing` (a sync holds
 * it), `idle` (last sync complete), `error` (last sync failed; `last_error` holds a safe message, `cursor` the last
 * committed page so the next sync resumes).
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** Registry states. */
export type ConnectorState = "registered" | "syncing" | "idle" | "error";

/** One registry row. */
export interface ConnectorRow {
  id: number;
  kind: string;
  instance: string;
  state: ConnectorState;
  last_sync_at: string | null;
  last_attempt_at: string | null;
  cursor: string | null;
  last_error: string | null;
  records_total: number;
  registered_at: string;
}

function toRow(r: Row): ConnectorRow {
  const s = (v: unknown) => (v === null || v === undefined ? null : String(v));
  return {
    id: Number(r.id), kind: String(r.kind), instance: String(r.instance), state: String(r.state) as ConnectorState,
    last_sync_at: s(r.last_sync_at), last_attempt_at: s(r.last_attempt_at), cursor: s(r.cursor), last_error: s(r.last_error),
    records_total: Number(r.records_total ?? 0), registered_at: String(r.registered_at),
  };
}

/** Every connector, by kind then instance. */
export async function listConnectors(ex: Exec): Promise<ConnectorRow[]> {
  const rs = await ex.execute("SELECT * FROM connectors ORDER BY kind, instance");
  return rs.rows.map(toRow);
}

/** One connector, or undefined. */
export async function getConnector(ex: Exec, kind: string, instance: string): Promise<ConnectorRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM connectors WHERE kind = ? AND instance = ?", args: [kind, instance] });
  return rs.rows[0] ? toRow(rs.rows[0]) : undefined;
}

/** Inserts a connector in state `registered`, or returns the existing row unchanged (`created: false`). */
export async function insertConnector(ex: Exec, kind: string, instance: string, at: string): Promise<{ row: ConnectorRow; created: boolean }> {
  const rs = await ex.execute({
    sql: `INSERT INTO connectors (kind, instance, state, registered_at) VALUES (?, ?, 'registered', ?)
          ON CONFLICT(kind, instance) DO NOTHING RETURNING *`,
    args: [kind, instance, at],
  });
  if (rs.rows[0]) return { row: toRow(rs.rows[0]), created: true };
  return { row: (await getConnector(ex, kind, instance))!, created: false };
}

/**
 * Claims a connector for a sync: state `syncing`, attempt time set; false when another sync holds it (a claim older
 * than `staleBefore` is taken over: its process died, and the committed cursor is intact).
 */
export async function claimConnector(ex: Exec, id: number, at: string, staleBefore: string): Promise<boolean> {
  const rs = await ex.execute({
    sql: `UPDATE connectors SET state = 'syncing', last_attempt_at = ?, last_error = NULL
          WHERE id = ? AND (state <> 'syncing' OR last_attempt_at IS NULL OR last_attempt_at < ?)`,
    args: [at, id, staleBefore],
  });
  return rs.rowsAffected === 1;
}

/** Commits a page's cursor and record count (inside the page's transaction). */
export async function advanceCursor(ex: Exec, id: number, cursor: string | null, records: number): Promise<void> {
  await ex.execute({ sql: "UPDATE connectors SET cursor = ?, records_total = records_total + ? WHERE id = ?", args: [cursor, records, id] });
}

/** Ends a sync: `idle` with `last_sync_at` and the next sync's cursor, or `error` with a safe message. */
export async function finishConnector(ex: Exec, id: number, end: { ok: true; at: string; cursor: string | null } | { ok: false; error: string }): Promise<void> {
  if (end.ok) {
    await ex.execute({ sql: "UPDATE connectors SET state = 'idle', last_sync_at = ?, cursor = ?, last_error = NULL WHERE id = ?", args: [end.at, end.cursor, id] });
  } else {
    await ex.execute({ sql: "UPDATE connectors SET state = 'error', last_error = ? WHERE id = ?", args: [end.error.slice(0, 500), id] });
  }
}

/** The revision (`hash`) and state of the connector sources at these paths (file_sources rows of `kind`/`root`). */
export async function sourceRevs(ex: Exec, kind: string, root: string, paths: string[]): Promise<Map<string, { id: number; rev: string; active: boolean }>> {
  const out = new Map<string, { id: number; rev: string; active: boolean }>();
  for (let i = 0; i < paths.length; i += 400) {
    const part = paths.slice(i, i + 400);
    if (!part.length) break;
    const rs = await ex.execute({
      sql: `SELECT id, path, hash, state FROM file_sources WHERE kind = ? AND root = ? AND path IN (${part.map(() => "?").join(",")})`,
      args: [kind, root, ...part],
    });
    for (const r of rs.rows) out.set(String(r.path), { id: Number(r.id), rev: String(r.hash), active: String(r.state) === "active" });
  }
  return out;
}

/** True when a chunk is linked from a connector source (kind `connector:*`): the reconcile sweep may delete it. */
export async function linkedFromConnector(ex: Exec, chunkId: number): Promise<boolean> {
  const rs = await ex.execute({
    sql: `SELECT 1 FROM file_source_chunks k JOIN file_sources s ON s.id = k.source_id WHERE k.chunk_id = ? AND s.kind LIKE 'connector:%' LIMIT 1`,
    args: [chunkId],
  });
  return rs.rows.length > 0;
}
