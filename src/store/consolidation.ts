/**
 * Consolidation links (SPEC §3 supersede row, §2.2 `conflict`): a directed
 * `supersedes` or `contradicts` link from a newer chunk to an older one,
 * with its life as timestamps (proposed at `created_at`, approved at
 * `approved_at`, undone or dismissed at `closed_at`) so recall with `at` in
 * the past sees the links as they were. Also the two candidate scans the
 * deterministic proposer reads (graph conflicts, chunk times).
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** Link kinds. */
export type LinkKind = "supersedes" | "contradicts";
/** Link statuses. */
export type LinkStatus = "proposed" | "approved" | "undone" | "dismissed";

/** A stored link. */
export interface LinkRow {
  id: number;
  kind: LinkKind;
  from: number;
  to: number;
  status: LinkStatus;
  basis: Record<string, unknown>;
  createdAt: string;
  approvedAt?: string;
  closedAt?: string;
}

function toLink(r: Row): LinkRow {
  const l: LinkRow = {
    id: Number(r.id), kind: String(r.kind) as LinkKind, from: Number(r.from_chunk_id), to: Number(r.to_chunk_id),
    status: String(r.status) as LinkStatus, basis: JSON.parse(String(r.basis)), createdAt: String(r.created_at),
  };
  if (r.approved_at !== null) l.approvedAt = String(r.approved_at);
  if (r.closed_at !== null) l.closedAt = String(r.closed_at);
  return l;
}

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Bumps the link-set version (in the writer's transaction) so every process's link cache reloads. */
async function bumpLinksVersion(ex: Exec): Promise<void> {
  await ex.execute(`INSERT INTO store_meta (key, value) VALUES ('links_version', '1')
                    ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)`);
}

/** The current link-set version ("0" before any link was written). */
export async function linksVersion(ex: Exec): Promise<string> {
  const rs = await ex.execute("SELECT value FROM store_meta WHERE key = 'links_version'");
  return rs.rows.length ? String(rs.rows[0].value) : "0";
}

/** Inserts a link; returns its id. */
export async function insertLink(
  ex: Exec,
  l: { kind: LinkKind; from: number; to: number; status: "proposed" | "approved"; basis: Record<string, unknown>; createdAt: string },
): Promise<number> {
  const rs = await ex.execute({
    sql: `INSERT INTO consolidation_links (kind, from_chunk_id, to_chunk_id, status, basis, created_at, approved_at)
          VALUES (?, ?, ?, ?, ?, ?, ?)`,
    args: [l.kind, l.from, l.to, l.status, JSON.stringify(l.basis), l.createdAt, l.status === "approved" ? l.createdAt : null],
  });
  await bumpLinksVersion(ex);
  return Number(rs.lastInsertRowid);
}

/** Reads one link. */
export async function getLink(ex: Exec, id: number): Promise<LinkRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM consolidation_links WHERE id = ?", args: [id] });
  return rs.rows.length ? toLink(rs.rows[0]) : undefined;
}

/** A page of links in id order. */
export async function listLinks(ex: Exec, o: { status?: LinkStatus; afterId: number; limit: number }): Promise<LinkRow[]> {
  const rs = o.status === undefined
    ? await ex.execute({ sql: "SELECT * FROM consolidation_links WHERE id > ? ORDER BY id LIMIT ?", args: [o.afterId, o.limit] })
    : await ex.execute({ sql: "SELECT * FROM consolidation_links WHERE status = ? AND id > ? ORDER BY id LIMIT ?", args: [o.status, o.afterId, o.limit] });
  return rs.rows.map(toLink);
}

/** A link's ends and timestamps only (what the temporal filter reads on every recall). */
export interface LinkTimes {
  kind: LinkKind;
  from: number;
  to: number;
  createdAt: string;
  approvedAt?: string;
  closedAt?: string;
}

/** True when any link of `kind` joins the two chunks (either direction, any status). */
export async function linkExistsForPair(ex: Exec, kind: LinkKind, a: number, b: number): Promise<boolean> {
  const rs = await ex.execute({
    sql: `SELECT 1 FROM consolidation_links WHERE kind = ? AND ((from_chunk_id = ? AND to_chunk_id = ?) OR (from_chunk_id = ? AND to_chunk_id = ?)) LIMIT 1`,
    args: [kind, a, b, b, a],
  });
  return rs.rows.length > 0;
}

/** The open (proposed or approved) link of `kind` from `from` to `to`, if any. */
export async function findOpenLink(ex: Exec, kind: LinkKind, from: number, to: number): Promise<LinkRow | undefined> {
  const rs = await ex.execute({
    sql: `SELECT * FROM consolidation_links WHERE kind = ? AND from_chunk_id = ? AND to_chunk_id = ? AND status IN ('proposed', 'approved') ORDER BY id LIMIT 1`,
    args: [kind, from, to],
  });
  return rs.rows.length ? toLink(rs.rows[0]) : undefined;
}

/** Approves a proposed link; false when it was not proposed. */
export async function approveLink(ex: Exec, id: number, at: string): Promise<boolean> {
  const rs = await ex.execute({ sql: "UPDATE consolidation_links SET status = 'approved', approved_at = ? WHERE id = ? AND status = 'proposed'", args: [at, id] });
  if (rs.rowsAffected > 0) await bumpLinksVersion(ex);
  return rs.rowsAffected > 0;
}

/** Closes a link: approved → undone, proposed → dismissed; false when it was neither. */
export async function closeLink(ex: Exec, id: number, at: string): Promise<LinkStatus | undefined> {
  const rs = await ex.execute({
    sql: `UPDATE consolidation_links SET status = CASE status WHEN 'approved' THEN 'undone' ELSE 'dismissed' END, closed_at = ?
          WHERE id = ? AND status IN ('approved', 'proposed') RETURNING status`,
    args: [at, id],
  });
  if (!rs.rows.length) return undefined;
  await bumpLinksVersion(ex);
  return String(rs.rows[0].status) as LinkStatus;
}

/** Chunk ids that `id` supersedes through approved links (one hop). */
export async function approvedSupersededBy(ex: Exec, id: number): Promise<number[]> {
  const rs = await ex.execute({
    sql: "SELECT to_chunk_id FROM consolidation_links WHERE kind = 'supersedes' AND status = 'approved' AND from_chunk_id = ?",
    args: [id],
  });
  return rs.rows.map((r) => Number(r.to_chunk_id));
}

/** Deletes every link with either end in `ids` (erasure), 900 ids per statement; returns the number removed. */
export async function deleteLinksTouching(ex: Exec, ids: number[]): Promise<number> {
  let n = 0;
  for (let i = 0; i < ids.length; i += 900) {
    const part = ids.slice(i, i + 900);
    for (const col of ["from_chunk_id", "to_chunk_id"]) {
      n += (await ex.execute({ sql: `DELETE FROM consolidation_links WHERE ${col} IN (${marks(part.length)})`, args: part })).rowsAffected;
    }
  }
  if (n > 0) await bumpLinksVersion(ex);
  return n;
}

/** Times (epoch ms) and flag of one chunk, as the temporal filter reads them. */
export interface ChunkTimes {
  createdMs: number;
  expiresMs?: number;
  flagged: boolean;
}

/**
 * In one statement (ids passed as one JSON array): the links touching `ids`
 * or touching any chunk those links reach, and the times of `ids` and of
 * those neighbours. One round trip per recall, whatever the candidate count.
 */
export async function temporalRows(ex: Exec, ids: readonly number[]): Promise<{ links: LinkTimes[]; times: Map<number, ChunkTimes> }> {
  const rs = await ex.execute({
    sql: `WITH ids(id) AS (SELECT value FROM json_each(?)),
          near AS (SELECT from_chunk_id AS a, to_chunk_id AS b FROM consolidation_links
                   WHERE from_chunk_id IN (SELECT id FROM ids) OR to_chunk_id IN (SELECT id FROM ids)),
          wanted(id) AS (SELECT id FROM ids UNION SELECT a FROM near UNION SELECT b FROM near)
          SELECT 'l' AS t, id, kind, from_chunk_id AS a, to_chunk_id AS b, created_at, approved_at AS x, closed_at AS y
            FROM consolidation_links
            WHERE from_chunk_id IN (SELECT id FROM wanted) OR to_chunk_id IN (SELECT id FROM wanted)
          UNION ALL
          SELECT 'c', id, NULL, NULL, NULL, created_at, expires_at, flagged FROM chunks WHERE id IN (SELECT id FROM wanted)`,
    args: [JSON.stringify(ids)],
  });
  const links: LinkTimes[] = [];
  const times = new Map<number, ChunkTimes>();
  for (const r of rs.rows) {
    if (r.t === "l") {
      const l: LinkTimes = { kind: String(r.kind) as LinkKind, from: Number(r.a), to: Number(r.b), createdAt: String(r.created_at) };
      if (r.x !== null) l.approvedAt = String(r.x);
      if (r.y !== null) l.closedAt = String(r.y);
      links.push(l);
    } else {
      const c: ChunkTimes = { createdMs: Date.parse(String(r.created_at)), flagged: Number(r.y) === 1 };
      if (r.x !== null && !Number.isNaN(Date.parse(String(r.x)))) c.expiresMs = Date.parse(String(r.x));
      times.set(Number(r.id), c);
    }
  }
  return { links, times };
}

/** Ends and timestamps of every link (the per-process link cache loads these). */
export async function allLinkTimes(ex: Exec): Promise<LinkTimes[]> {
  const rs = await ex.execute("SELECT kind, from_chunk_id, to_chunk_id, created_at, approved_at, closed_at FROM consolidation_links ORDER BY id");
  return rs.rows.map((r) => {
    const l: LinkTimes = { kind: String(r.kind) as LinkKind, from: Number(r.from_chunk_id), to: Number(r.to_chunk_id), createdAt: String(r.created_at) };
    if (r.approved_at !== null) l.approvedAt = String(r.approved_at);
    if (r.closed_at !== null) l.closedAt = String(r.closed_at);
    return l;
  });
}

/** One pair of current edges that give the same subject and relation different objects. */
export interface EdgeConflict {
  domain: string;
  subject: string;
  relation: string;
  a: { chunkId: number; object: string; validAt?: string; invalidAt?: string };
  b: { chunkId: number; object: string; validAt?: string; invalidAt?: string };
}

/** Current edges (same domain, subject, relation; different object) owned by two distinct unflagged chunks. */
export async function edgeConflicts(ex: Exec, domain?: string): Promise<EdgeConflict[]> {
  const rs = await ex.execute({
    sql: `SELECT r1.domain AS domain, fe.display_name AS subject, r1.type AS relation,
                 r1.chunk_id AS a_chunk, t1.display_name AS a_object, r1.valid_at AS a_valid, r1.invalid_at AS a_invalid,
                 r2.chunk_id AS b_chunk, t2.display_name AS b_object, r2.valid_at AS b_valid, r2.invalid_at AS b_invalid
          FROM relations r1
          JOIN relations r2 ON r2.domain = r1.domain AND r2.from_id = r1.from_id AND r2.type = r1.type
               AND r2.to_id <> r1.to_id AND r2.chunk_id > r1.chunk_id
          JOIN entities fe ON fe.id = r1.from_id
          JOIN entities t1 ON t1.id = r1.to_id
          JOIN entities t2 ON t2.id = r2.to_id
          JOIN chunks c1 ON c1.id = r1.chunk_id AND c1.flagged = 0
          JOIN chunks c2 ON c2.id = r2.chunk_id AND c2.flagged = 0
          WHERE r1.superseded_at IS NULL AND r2.superseded_at IS NULL AND (? IS NULL OR r1.domain = ?)
          ORDER BY r1.chunk_id, r2.chunk_id, r1.id, r2.id`,
    args: [domain ?? null, domain ?? null],
  });
  const opt = (v: unknown) => (v === null || v === undefined ? undefined : String(v));
  return rs.rows.map((r) => ({
    domain: String(r.domain), subject: String(r.subject), relation: String(r.relation),
    a: { chunkId: Number(r.a_chunk), object: String(r.a_object), validAt: opt(r.a_valid), invalidAt: opt(r.a_invalid) },
    b: { chunkId: Number(r.b_chunk), object: String(r.b_object), validAt: opt(r.b_valid), invalidAt: opt(r.b_invalid) },
  }));
}

/** Relation types some chunk gives one subject two or more current objects of (the author listed several). */
export async function listedRelationTypes(ex: Exec, domain?: string): Promise<Set<string>> {
  const rs = await ex.execute({
    sql: `SELECT DISTINCT type FROM (
            SELECT type FROM relations
            WHERE superseded_at IS NULL AND chunk_id IS NOT NULL AND (? IS NULL OR domain = ?)
            GROUP BY domain, from_id, type, chunk_id HAVING COUNT(DISTINCT to_id) > 1)`,
    args: [domain ?? null, domain ?? null],
  });
  return new Set(rs.rows.map((r) => String(r.type)));
}
