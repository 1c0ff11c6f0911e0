/**
 * Proposal rows (SPEC §2.7, §3): insert a pending proposal, read and page
 * them, decide one (pending → approved or rejected, guarded on `pending`
 * so a concurrent decision cannot double-promote), and the erasure deletes
 * (by promoted chunk, by owner, by content match), 900 ids per statement.
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";
import { matchWhere } from "./erasure-match.ts";

/** Proposal statuses (SPEC §2.7). */
export type ProposalStatus = "pending" | "approved" | "rejected";

/** A stored proposal. Optional columns read back as absent; `promotedChunkId` is null until an approval promotes. */
export interface ProposalRow {
  id: number;
  status: ProposalStatus;
  kind: "memory" | "capture";
  door: string;
  title?: string;
  content: string;
  contentHash: string;
  domain: string;
  ingestKind: string;
  origin?: string;
  owner?: string;
  source?: string;
  sourcePrompt?: string;
  score: number;
  scoreBreakdown: Record<string, unknown>;
  screen: Record<string, unknown>;
  createdAt: string;
  decidedAt?: string;
  promotedChunkId: number | null;
  supersedesChunkId?: number;
  /** Set when a UMP door filed it (issue 22): the id handed out and the sealed record JSON it stands for. */
  umpId?: string;
  umpRecord?: string;
  /** Chunk metadata the filing door computed (e.g. `conversation` labels), carried to the promoted chunk. */
  meta?: Record<string, unknown>;
}

/** A proposal before insert. */
export type NewProposal = Omit<ProposalRow, "id" | "status" | "decidedAt" | "promotedChunkId" | "supersedesChunkId">;

function toRow(r: Row): ProposalRow {
  const p: ProposalRow = {
    id: Number(r.id), status: String(r.status) as ProposalStatus, kind: String(r.kind) as ProposalRow["kind"], door: String(r.door),
    content: String(r.content), contentHash: String(r.content_hash), domain: String(r.domain), ingestKind: String(r.ingest_kind),
    score: Number(r.score), scoreBreakdown: JSON.parse(String(r.score_breakdown)), screen: JSON.parse(String(r.screen)),
    createdAt: String(r.created_at), promotedChunkId: r.promoted_chunk_id === null ? null : Number(r.promoted_chunk_id),
  };
  const opt = (k: keyof ProposalRow, v: unknown) => {
    if (v !== null && v !== undefined) (p as unknown as Record<string, unknown>)[k] = String(v);
  };
  opt("title", r.title);
  opt("origin", r.origin);
  opt("owner", r.owner);
  opt("source", r.source);
  opt("sourcePrompt", r.source_prompt);
  opt("decidedAt", r.decided_at);
  opt("umpId", r.ump_id);
  opt("umpRecord", r.ump_record);
  if (r.supersedes_chunk_id !== null && r.supersedes_chunk_id !== undefined) p.supersedesChunkId = Number(r.supersedes_chunk_id);
  if (typeof r.meta_json === "string") p.meta = JSON.parse(r.meta_json) as Record<string, unknown>;
  return p;
}

/** Inserts a pending proposal; returns its id. */
export async function insertProposal(ex: Exec, p: NewProposal): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO proposals (status, kind, door, title, content, content_hash, domain, ingest_kind, origin, owner, source,
            source_prompt, score, score_breakdown, screen, created_at, ump_id, ump_record, meta_json)
          VALUES ('pending', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [p.kind, p.door, p.title ?? null, p.content, p.contentHash, p.domain, p.ingestKind, p.origin ?? null, p.owner ?? null,
      p.source ?? null, p.sourcePrompt ?? null, p.score, JSON.stringify(p.scoreBreakdown), JSON.stringify(p.screen), p.createdAt,
      p.umpId ?? null, p.umpRecord ?? null, p.meta ? JSON.stringify(p.meta) : null],
  });
  return Number(rs.lastInsertRowid);
}

/** Reads one proposal. */
export async function getProposal(ex: Exec, id: number): Promise<ProposalRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM proposals WHERE id = ?", args: [id] });
  return rs.rows.length ? toRow(rs.rows[0]) : undefined;
}

/** The pending proposal with this content hash, if any. */
export async function findPendingByHash(ex: Exec, contentHash: string): Promise<ProposalRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM proposals WHERE content_hash = ? AND status = 'pending' ORDER BY id LIMIT 1", args: [contentHash] });
  return rs.rows.length ? toRow(rs.rows[0]) : undefined;
}

/** The newest proposal a UMP door filed for record `umpId`, if any (issue 22 item 1). */
export async function findProposalByUmpId(ex: Exec, umpId: string): Promise<ProposalRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM proposals WHERE ump_id = ? ORDER BY id DESC LIMIT 1", args: [umpId] });
  return rs.rows.length ? toRow(rs.rows[0]) : undefined;
}

/** A page of proposals in id order after `afterId`, optionally of one status. */
export async function listProposals(ex: Exec, o: { status?: ProposalStatus; afterId: number; limit: number }): Promise<ProposalRow[]> {
  const rs = o.status === undefined
    ? await ex.execute({ sql: "SELECT * FROM proposals WHERE id > ? ORDER BY id LIMIT ?", args: [o.afterId, o.limit] })
    : await ex.execute({ sql: "SELECT * FROM proposals WHERE status = ? AND id > ? ORDER BY id LIMIT ?", args: [o.status, o.afterId, o.limit] });
  return rs.rows.map(toRow);
}

/** Moves a pending proposal to approved or rejected; returns false when it was not pending. */
export async function decideProposal(
  ex: Exec,
  id: number,
  d: { status: "approved" | "rejected"; decidedAt: string; promotedChunkId?: number; supersedesChunkId?: number },
): Promise<boolean> {
  const rs = await ex.execute({
    sql: `UPDATE proposals SET status = ?, decided_at = ?, promoted_chunk_id = ?, supersedes_chunk_id = ?
          WHERE id = ? AND status = 'pending'`,
    args: [d.status, d.decidedAt, d.promotedChunkId ?? null, d.supersedesChunkId ?? null, id],
  });
  return rs.rowsAffected > 0;
}

/** Counts proposals by status. */
export async function countProposalsByStatus(ex: Exec): Promise<Record<ProposalStatus, number>> {
  const rs = await ex.execute("SELECT status, COUNT(*) AS n FROM proposals GROUP BY status");
  const out: Record<ProposalStatus, number> = { pending: 0, approved: 0, rejected: 0 };
  for (const r of rs.rows) out[String(r.status) as ProposalStatus] = Number(r.n);
  return out;
}

const placeholders = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Ids of proposals whose promoted chunk is one of `chunkIds` (SPEC §3 erasure), 900 ids per statement. */
export async function proposalIdsPromotedTo(ex: Exec, chunkIds: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < chunkIds.length; i += 900) {
    const part = chunkIds.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT id FROM proposals WHERE promoted_chunk_id IN (${placeholders(part.length)})`, args: part });
    for (const r of rs.rows) out.push(Number(r.id));
  }
  return out;
}

/**
 * Ids of proposals owned by `owner` or whose text contains any of `needles` (ASCII case-insensitive): content, title,
 * sourcing prompt, source, and the JSON a door kept beside the text (the sealed UMP record, chunk metadata, carried
 * labels and edges, screen and score notes) — every column a reviewer or an approval could read the subject from.
 */
export async function proposalIdsMatching(ex: Exec, o: { owner?: string; needles: string[] }): Promise<number[]> {
  const ids = new Set<number>();
  if (o.owner !== undefined) {
    const rs = await ex.execute({ sql: "SELECT id FROM proposals WHERE owner = ?", args: [o.owner] });
    for (const r of rs.rows) ids.add(Number(r.id));
  }
  const m = matchWhere(["content", "title", "source_prompt", "source", "ump_record", "meta_json", "carried", "screen", "score_breakdown"], o.needles);
  if (m) for (const r of (await ex.execute({ sql: `SELECT id FROM proposals WHERE ${m.sql}`, args: m.args })).rows) ids.add(Number(r.id));
  return [...ids].sort((a, b) => a - b);
}

/** Reads many proposals by id. */
export async function getProposals(ex: Exec, ids: number[]): Promise<ProposalRow[]> {
  const out: ProposalRow[] = [];
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT * FROM proposals WHERE id IN (${placeholders(part.length)}) ORDER BY id`, args: part });
    for (const r of rs.rows) out.push(toRow(r));
  }
  return out;
}

/** Deletes proposals by id, 900 ids per statement; returns the number removed. */
export async function deleteProposals(ex: Exec, ids: number[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    const rs = await ex.execute({ sql: `DELETE FROM proposals WHERE id IN (${placeholders(part.length)})`, args: part });
    n += rs.rowsAffected;
  }
  return n;
}
