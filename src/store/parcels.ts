/**
 * Parcel rows (SPEC §2.10, §4.10): the rows a parcel export ships (promoted,
 * non-quarantined chunks of one domain, with the current edges each asserts),
 * the carried payload of imported proposals, and the parcel ledger.
 */
import type { Row } from "@libsql/client";
import type { Chunk } from "../core/types.ts";
import { rowToChunk } from "./chunks.ts";
import type { Exec } from "./db.ts";

const CHUNK_COLS = `id, title, content, domain, content_hash, source, origin, origin_source, memory_kind, lawful_basis,
  region, confidence, assertion_kind, expires_at, flagged, authority, meta, created_at`;

/** A page of exportable chunks: domain, not flagged, created at or after `since`, id > `afterId`, in id order. */
export async function exportableChunks(ex: Exec, o: { domain: string; since?: string; afterId: number; limit: number }): Promise<Chunk[]> {
  const rs = await ex.execute({
    sql: `SELECT ${CHUNK_COLS} FROM chunks WHERE domain = ? AND flagged = 0 AND id > ? AND (? IS NULL OR created_at >= ?)
          ORDER BY id LIMIT ?`,
    args: [o.domain, o.afterId, o.since ?? null, o.since ?? null, o.limit],
  });
  return rs.rows.map(rowToChunk);
}

/** One current edge a chunk asserts, by entity names. */
export interface AssertedEdge {
  chunkId: number;
  from: string;
  fromType?: string;
  to: string;
  toType?: string;
  type: string;
  validAt?: string;
  invalidAt?: string;
}

/** The current (not superseded) edges produced by these chunks, in edge id order. */
export async function edgesAssertedBy(ex: Exec, chunkIds: readonly number[]): Promise<AssertedEdge[]> {
  const out: AssertedEdge[] = [];
  for (let i = 0; i < chunkIds.length; i += 900) {
    const part = chunkIds.slice(i, i + 900);
    const rs = await ex.execute({
      sql: `SELECT r.chunk_id, f.display_name AS from_name, f.type AS from_type, t.display_name AS to_name, t.type AS to_type,
              r.type, r.valid_at, r.invalid_at
            FROM relations r JOIN entities f ON f.id = r.from_id JOIN entities t ON t.id = r.to_id
            WHERE r.chunk_id IN (${part.map(() => "?").join(",")}) AND r.superseded_at IS NULL ORDER BY r.id`,
      args: [...part],
    });
    for (const r of rs.rows) {
      const e: AssertedEdge = { chunkId: Number(r.chunk_id), from: String(r.from_name), to: String(r.to_name), type: String(r.type) };
      if (r.from_type !== null) e.fromType = String(r.from_type);
      if (r.to_type !== null) e.toType = String(r.to_type);
      if (r.valid_at !== null) e.validAt = String(r.valid_at);
      if (r.invalid_at !== null) e.invalidAt = String(r.invalid_at);
      out.push(e);
    }
  }
  return out;
}

/** Stores what an imported proposal carries beside its text (labels and edges, as JSON). */
export async function setProposalCarried(ex: Exec, proposalId: number, carried: Record<string, unknown>): Promise<void> {
  await ex.execute({ sql: "UPDATE proposals SET carried = ? WHERE id = ?", args: [JSON.stringify(carried), proposalId] });
}

/** What an imported proposal carries, or undefined for any other proposal. */
export async function proposalCarried(ex: Exec, proposalId: number): Promise<Record<string, unknown> | undefined> {
  const rs = await ex.execute({ sql: "SELECT carried FROM proposals WHERE id = ?", args: [proposalId] });
  const v = rs.rows[0]?.carried;
  return v === null || v === undefined ? undefined : JSON.parse(String(v));
}

/** One ledger row (SPEC §2.10). */
export interface LedgerRow {
  id: number;
  direction: "in" | "out";
  parcelHash: string;
  signer: string;
  domain: string;
  sourceDomain: string;
  rowCount: number;
  reviewer: string;
  counts: Record<string, unknown>;
  createdAt: string;
}

/** Inserts a ledger row; returns its id. */
export async function insertLedgerRow(ex: Exec, r: Omit<LedgerRow, "id">): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO parcel_ledger (direction, parcel_hash, signer, domain, source_domain, row_count, reviewer, counts, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [r.direction, r.parcelHash, r.signer, r.domain, r.sourceDomain, r.rowCount, r.reviewer, JSON.stringify(r.counts), r.createdAt],
  });
  return Number(rs.lastInsertRowid);
}

/** A page of ledger rows with id > `afterId`, optionally of one domain, in id order. */
export async function listLedgerRows(ex: Exec, o: { domain?: string; afterId: number; limit: number }): Promise<LedgerRow[]> {
  const rs = await ex.execute({
    sql: `SELECT * FROM parcel_ledger WHERE id > ? AND (? IS NULL OR domain = ?) ORDER BY id LIMIT ?`,
    args: [o.afterId, o.domain ?? null, o.domain ?? null, o.limit],
  });
  return rs.rows.map(toLedgerRow);
}

function toLedgerRow(r: Row): LedgerRow {
  return {
    id: Number(r.id), direction: String(r.direction) as LedgerRow["direction"], parcelHash: String(r.parcel_hash), signer: String(r.signer),
    domain: String(r.domain), sourceDomain: String(r.source_domain), rowCount: Number(r.row_count), reviewer: String(r.reviewer),
    counts: JSON.parse(String(r.counts)), createdAt: String(r.created_at),
  };
}

/** Content hashes among `hashes` that a pending proposal already carries. */
export async function pendingProposalHashes(ex: Exec, hashes: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  const unique = [...new Set(hashes)];
  for (let i = 0; i < unique.length; i += 900) {
    const part = unique.slice(i, i + 900);
    const rs = await ex.execute({
      sql: `SELECT DISTINCT content_hash FROM proposals WHERE status = 'pending' AND content_hash IN (${part.map(() => "?").join(",")})`,
      args: part,
    });
    for (const r of rs.rows) out.add(String(r.content_hash));
  }
  return out;
}
