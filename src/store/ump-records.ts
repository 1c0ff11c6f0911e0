/**
 * UMP record rows (SPEC §2.8, migration 6): the metadata that turns a chunk
 * into a portable record, its feedback counts, and revoked token ids. The
 * `record` column is the record JSON without `body.text`.
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** The four feedback outcomes (UMP notes "Operations"). */
export const FEEDBACK_OUTCOMES = ["followed", "overridden", "ignored", "contradicted"] as const;
/** One feedback outcome. */
export type FeedbackOutcome = (typeof FEEDBACK_OUTCOMES)[number];

/** One stored row. */
export interface UmpRow {
  seq: number;
  id: string;
  chunkId: number;
  kind: string;
  owner: string;
  project?: string;
  agent?: string;
  visibility: string;
  status: string;
  validFrom: string;
  validTo?: string;
  expiresAt?: string;
  exportable: boolean;
  /** Record JSON without `body.text`. */
  record: string;
  feedback: Record<FeedbackOutcome, number>;
  createdAt: string;
  updatedAt: string;
}

/** What is written for one record (columns are derived from the record by the caller). */
export type UmpRowInput = Omit<UmpRow, "seq" | "feedback" | "createdAt" | "updatedAt">;

const COLS = `seq, id, chunk_id, kind, owner, project, agent, visibility, status, valid_from, valid_to, expires_at, exportable, record,
  followed, overridden, ignored, contradicted, created_at, updated_at`;

function toRow(r: Row): UmpRow {
  const out: UmpRow = {
    seq: Number(r.seq), id: String(r.id), chunkId: Number(r.chunk_id), kind: String(r.kind), owner: String(r.owner),
    visibility: String(r.visibility), status: String(r.status), validFrom: String(r.valid_from), exportable: Number(r.exportable) === 1,
    record: String(r.record), createdAt: String(r.created_at), updatedAt: String(r.updated_at),
    feedback: { followed: Number(r.followed), overridden: Number(r.overridden), ignored: Number(r.ignored), contradicted: Number(r.contradicted) },
  };
  if (r.project !== null) out.project = String(r.project);
  if (r.agent !== null) out.agent = String(r.agent);
  if (r.valid_to !== null) out.validTo = String(r.valid_to);
  if (r.expires_at !== null) out.expiresAt = String(r.expires_at);
  return out;
}

const args = (r: UmpRowInput) => [
  r.chunkId, r.kind, r.owner, r.project ?? null, r.agent ?? null, r.visibility, r.status, r.validFrom, r.validTo ?? null,
  r.expiresAt ?? null, r.exportable ? 1 : 0, r.record,
];

/** Inserts a record row; returns its `seq`, or 0 when the id already exists. */
export async function insertUmpRow(ex: Exec, r: UmpRowInput, now: string): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO ump_records (chunk_id, kind, owner, project, agent, visibility, status, valid_from, valid_to, expires_at,
            exportable, record, id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT(id) DO NOTHING`,
    args: [...args(r), r.id, now, now],
  });
  return rs.rowsAffected > 0 ? Number(rs.lastInsertRowid) : 0;
}

/** Rewrites the mutable columns of a record row (lineage, status, re-signed record JSON). */
export async function updateUmpRow(ex: Exec, r: UmpRowInput, now: string): Promise<void> {
  await ex.execute({
    sql: `UPDATE ump_records SET chunk_id = ?, kind = ?, owner = ?, project = ?, agent = ?, visibility = ?, status = ?, valid_from = ?,
            valid_to = ?, expires_at = ?, exportable = ?, record = ?, updated_at = ? WHERE id = ?`,
    args: [...args(r), now, r.id],
  });
}

/** One row by urn id. */
export async function getUmpRow(ex: Exec, id: string): Promise<UmpRow | undefined> {
  const rs = await ex.execute({ sql: `SELECT ${COLS} FROM ump_records WHERE id = ?`, args: [id] });
  return rs.rows.length ? toRow(rs.rows[0]) : undefined;
}

/** Every row on one chunk, oldest first. */
export async function umpRowsOfChunk(ex: Exec, chunkId: number): Promise<UmpRow[]> {
  const rs = await ex.execute({ sql: `SELECT ${COLS} FROM ump_records WHERE chunk_id = ? ORDER BY seq`, args: [chunkId] });
  return rs.rows.map(toRow);
}

/**
 * The rows of several chunks in insertion order, 500 chunks a statement (issue 20: a node following another
 * node's bulk ingest read them one chunk a round trip, ~9 ms each over sqld's HTTP — 35 s of a 4,000-chunk pass).
 */
export async function umpRowsOfChunks(ex: Exec, chunkIds: readonly number[]): Promise<UmpRow[]> {
  const out: UmpRow[] = [];
  for (let i = 0; i < chunkIds.length; i += 500) {
    const rs = await ex.execute({
      sql: `SELECT ${COLS} FROM ump_records WHERE chunk_id IN (SELECT value FROM json_each(?)) ORDER BY seq`,
      args: [JSON.stringify(chunkIds.slice(i, i + 500))],
    });
    for (const r of rs.rows) out.push(toRow(r));
  }
  return out;
}

/** A page of rows in insertion order after `afterSeq`. */
export async function listUmpRowsAfter(ex: Exec, afterSeq: number, limit: number): Promise<UmpRow[]> {
  const rs = await ex.execute({ sql: `SELECT ${COLS} FROM ump_records WHERE seq > ? ORDER BY seq LIMIT ?`, args: [afterSeq, limit] });
  return rs.rows.map(toRow);
}

/** Active rows whose retention deadline has passed. */
export async function listExpiredUmpRows(ex: Exec, nowIso: string, limit: number): Promise<UmpRow[]> {
  const rs = await ex.execute({
    sql: `SELECT ${COLS} FROM ump_records WHERE expires_at IS NOT NULL AND expires_at <= ? AND status <> 'tombstoned' ORDER BY seq LIMIT ?`,
    args: [nowIso, limit],
  });
  return rs.rows.map(toRow);
}

/** Deletes the rows of one chunk (the chunk itself was deleted); returns their ids. */
export async function deleteUmpRowsOfChunk(ex: Exec, chunkId: number): Promise<string[]> {
  const rs = await ex.execute({ sql: "SELECT id FROM ump_records WHERE chunk_id = ?", args: [chunkId] });
  await ex.execute({ sql: "DELETE FROM ump_feedback WHERE record_id IN (SELECT id FROM ump_records WHERE chunk_id = ?)", args: [chunkId] });
  await ex.execute({ sql: "DELETE FROM ump_records WHERE chunk_id = ?", args: [chunkId] });
  return rs.rows.map((r) => String(r.id));
}

/** Deletes one row. */
export async function deleteUmpRow(ex: Exec, id: string): Promise<void> {
  await ex.execute({ sql: "DELETE FROM ump_records WHERE id = ?", args: [id] });
  await ex.execute({ sql: "DELETE FROM ump_feedback WHERE record_id = ?", args: [id] });
}

/** Stores one feedback report and bumps its counter; returns the new counts. */
export async function addUmpFeedback(
  ex: Exec, f: { recordId: string; outcome: FeedbackOutcome; session?: string; actor?: string; at: string },
): Promise<void> {
  await ex.execute({
    sql: "INSERT INTO ump_feedback (record_id, outcome, session, actor, at) VALUES (?, ?, ?, ?, ?)",
    args: [f.recordId, f.outcome, f.session ?? null, f.actor ?? null, f.at],
  });
  // The outcome is one of four fixed column names (checked by the type), never client text.
  await ex.execute({ sql: `UPDATE ump_records SET ${f.outcome} = ${f.outcome} + 1 WHERE id = ?`, args: [f.recordId] });
}

/** Counts stored feedback rows of one record. */
export async function countUmpFeedback(ex: Exec, recordId: string): Promise<number> {
  const rs = await ex.execute({ sql: "SELECT COUNT(*) AS n FROM ump_feedback WHERE record_id = ?", args: [recordId] });
  return Number(rs.rows[0].n);
}

/** Records a revoked capability-token id; false when it was already revoked. */
export async function insertRevokedJti(ex: Exec, jti: string, at: string): Promise<boolean> {
  const rs = await ex.execute({ sql: "INSERT INTO ump_revoked (jti, revoked_at) VALUES (?, ?) ON CONFLICT(jti) DO NOTHING", args: [jti, at] });
  return rs.rowsAffected > 0;
}

/** True when the token id was revoked. */
export async function isJtiRevoked(ex: Exec, jti: string): Promise<boolean> {
  const rs = await ex.execute({ sql: "SELECT 1 FROM ump_revoked WHERE jti = ?", args: [jti] });
  return rs.rows.length > 0;
}

/** Every revoked token id (loaded once; the set is small and only grows). */
export async function listRevokedJtis(ex: Exec): Promise<string[]> {
  const rs = await ex.execute("SELECT jti FROM ump_revoked");
  return rs.rows.map((r) => String(r.jti));
}

/** Deletes the record rows, their feedback and the vault file links of erased chunks (900 ids per statement). */
export async function deleteUmpRowsOfChunks(ex: Exec, chunkIds: readonly number[]): Promise<Record<string, number>> {
  const n = { ump_records: 0, ump_feedback: 0, file_source_chunks: 0 };
  for (let i = 0; i < chunkIds.length; i += 900) {
    const part = chunkIds.slice(i, i + 900);
    const marks = part.map(() => "?").join(",");
    n.ump_feedback += (await ex.execute({ sql: `DELETE FROM ump_feedback WHERE record_id IN (SELECT id FROM ump_records WHERE chunk_id IN (${marks}))`, args: part })).rowsAffected;
    n.ump_records += (await ex.execute({ sql: `DELETE FROM ump_records WHERE chunk_id IN (${marks})`, args: part })).rowsAffected;
    n.file_source_chunks += (await ex.execute({ sql: `DELETE FROM file_source_chunks WHERE chunk_id IN (${marks})`, args: part })).rowsAffected;
  }
  return n;
}
