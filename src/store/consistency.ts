/**
 * Store invariants `cairn check-consistency` reads: each query returns the
 * offending ids (at most `limit`) and their total count.
 */
import type { Exec } from "./db.ts";
import { SOFT_TOMBSTONE_SQL } from "./tombstones.ts";

/** Offending ids of one invariant. */
export interface Offenders {
  count: number;
  sample: number[];
}

async function offenders(ex: Exec, fromWhere: string, idExpr: string, limit: number): Promise<Offenders> {
  const n = await ex.execute(`SELECT COUNT(*) AS n ${fromWhere}`);
  const rs = await ex.execute({ sql: `SELECT ${idExpr} AS id ${fromWhere} ORDER BY 1 LIMIT ?`, args: [limit] });
  return { count: Number(n.rows[0].n), sample: rs.rows.map((r) => Number(r.id)) };
}

async function hasTable(ex: Exec, name: string): Promise<boolean> {
  return (await ex.execute({ sql: "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", args: [name] })).rows.length > 0;
}

/** The invariant queries, by name. */
export async function storeInvariants(ex: Exec, limit = 10): Promise<Record<string, Offenders>> {
  const none: Offenders = { count: 0, sample: [] };
  return {
    // vectors whose chunk is gone (chunk_id)
    orphan_vectors: (await hasTable(ex, "chunk_vectors"))
      ? await offenders(ex, "FROM chunk_vectors v WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = v.chunk_id)", "v.chunk_id", limit)
      : none,
    // relations still owned by a deleted chunk (relation id)
    dangling_relation_owners: await offenders(ex,
      "FROM relations r WHERE r.chunk_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = r.chunk_id)", "r.id", limit),
    // open consolidation links with an end that is gone (link id)
    dangling_links: await offenders(ex,
      `FROM consolidation_links l WHERE l.status IN ('proposed', 'approved') AND (
         NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = l.from_chunk_id) OR NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = l.to_chunk_id))`, "l.id", limit),
    // approvals whose promoted chunk is neither stored nor tombstoned (proposal id)
    promoted_missing: await offenders(ex,
      `FROM proposals p WHERE p.promoted_chunk_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = p.promoted_chunk_id)
         AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.chunk_id = p.promoted_chunk_id)`, "p.id", limit),
    // proposals whose status and decision columns disagree (proposal id)
    proposal_state: await offenders(ex,
      `FROM proposals p WHERE (p.status = 'pending' AND (p.decided_at IS NOT NULL OR p.promoted_chunk_id IS NOT NULL))
         OR (p.status <> 'pending' AND p.decided_at IS NULL) OR (p.status = 'rejected' AND p.promoted_chunk_id IS NOT NULL)`, "p.id", limit),
    // tombstoned chunk ids that are still stored (chunk id), soft tombstones aside: a soft UMP forget or a retention
    // expiry retires a record and keeps its chunk (SPEC §3); `softTombstonesOnStored` pages those for the record check.
    tombstoned_present: await offenders(ex,
      `FROM tombstones t WHERE EXISTS (SELECT 1 FROM chunks c WHERE c.id = t.chunk_id) AND NOT ${SOFT_TOMBSTONE_SQL}`, "t.chunk_id", limit),
  };
}

/** Approved `supersedes` edges (from, to), for the cycle check. */
export async function approvedSupersedesEdges(ex: Exec): Promise<[number, number][]> {
  const rs = await ex.execute("SELECT from_chunk_id, to_chunk_id FROM consolidation_links WHERE kind = 'supersedes' AND status = 'approved' ORDER BY id");
  return rs.rows.map((r) => [Number(r.from_chunk_id), Number(r.to_chunk_id)]);
}

// --- multi-database mode (issue 20): the checks whose rows span the global database and the domain databases ---

/** The invariants whose rows all live in one database (run on each database, docs/scale-out.md "One database per domain"). */
export const PER_DATABASE = ["orphan_vectors", "dangling_relation_owners", "tombstoned_present"] as const;

/** Open consolidation links' ends after `afterId` (global database), one page. */
export async function openLinkEnds(ex: Exec, afterId: number, limit: number): Promise<{ id: number; from: number; to: number }[]> {
  const rs = await ex.execute({
    sql: "SELECT id, from_chunk_id, to_chunk_id FROM consolidation_links WHERE status IN ('proposed', 'approved') AND id > ? ORDER BY id LIMIT ?",
    args: [afterId, limit],
  });
  return rs.rows.map((r) => ({ id: Number(r.id), from: Number(r.from_chunk_id), to: Number(r.to_chunk_id) }));
}

/** Approvals' promoted chunk ids after `afterId` (global database), one page. */
export async function promotedChunkIds(ex: Exec, afterId: number, limit: number): Promise<{ id: number; chunk: number }[]> {
  const rs = await ex.execute({
    sql: "SELECT id, promoted_chunk_id FROM proposals WHERE promoted_chunk_id IS NOT NULL AND id > ? ORDER BY id LIMIT ?",
    args: [afterId, limit],
  });
  return rs.rows.map((r) => ({ id: Number(r.id), chunk: Number(r.promoted_chunk_id) }));
}

/** Which of these ids are stored chunks (`tombstoned`: or tombstoned) in this database. */
export async function presentChunkIds(ex: Exec, ids: readonly number[], tombstoned = false): Promise<number[]> {
  if (ids.length === 0) return [];
  const marks = ids.map(() => "?").join(", ");
  const sql = tombstoned
    ? `SELECT id FROM chunks WHERE id IN (${marks}) UNION SELECT chunk_id FROM tombstones WHERE chunk_id IN (${marks})`
    : `SELECT id FROM chunks WHERE id IN (${marks})`;
  const rs = await ex.execute({ sql, args: tombstoned ? [...ids, ...ids] : [...ids] });
  return rs.rows.map((r) => Number(r[0]));
}

/** Soft tombstones on stored chunks after tombstone id `afterId` (this database), one page, with the record each retired. */
export async function softTombstonesOnStored(ex: Exec, afterId: number, limit: number): Promise<{ id: number; chunkId: number; recordId: string }[]> {
  const rs = await ex.execute({
    sql: `SELECT t.id, t.chunk_id, substr(t.reason, instr(t.reason, ' ') + 1) AS record_id FROM tombstones t
          WHERE t.id > ? AND ${SOFT_TOMBSTONE_SQL} AND EXISTS (SELECT 1 FROM chunks c WHERE c.id = t.chunk_id) ORDER BY t.id LIMIT ?`,
    args: [afterId, limit],
  });
  return rs.rows.map((r) => ({ id: Number(r.id), chunkId: Number(r.chunk_id), recordId: String(r.record_id) }));
}

/** The ids among `recordIds` of UMP records that are live (stored and not tombstoned; global database). */
export async function liveUmpIds(ex: Exec, recordIds: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (let i = 0; i < recordIds.length; i += 900) {
    const part = recordIds.slice(i, i + 900);
    const rs = await ex.execute({ sql: `SELECT id FROM ump_records WHERE status <> 'tombstoned' AND id IN (${part.map(() => "?").join(", ")})`, args: part });
    for (const r of rs.rows) out.add(String(r.id));
  }
  return out;
}

// --- the text-field rule (src/core/text-rule.ts) over stored rows ---

/** One text column holding a NUL in some rows: `table.column`, their row ids (at most `limit`) and count. */
export interface NulColumn {
  column: string;
  count: number;
  sample: number[];
}

/**
 * Text columns whose stored value holds a U+0000 byte (legacy rows written before every door refused it): libSQL
 * reads such text back cut at the NUL, so the row no longer says what was stored. Every declared TEXT column of every
 * ordinary table is scanned as bytes (`instr` on a BLOB cast, which does not stop at the NUL).
 */
export async function nulTextColumns(ex: Exec, limit = 10): Promise<NulColumn[]> {
  const tables = (await ex.execute(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
  )).rows.map((r) => String(r.name));
  const out: NulColumn[] = [];
  for (const table of tables) {
    // FTS and vector shadow tables hold index bytes, not text a client wrote.
    if (/_(data|idx|content|docsize|config|shadows|vec_.*)$/.test(table) && !["chunks"].includes(table)) continue;
    const cols = (await ex.execute(`SELECT name, type FROM pragma_table_info('${table.replaceAll("'", "''")}')`)).rows
      .filter((r) => /TEXT|CHAR|CLOB/i.test(String(r.type))).map((r) => String(r.name));
    for (const col of cols) {
      const q = `FROM "${table}" WHERE instr(CAST("${col}" AS BLOB), X'00') > 0`;
      const n = Number((await ex.execute(`SELECT COUNT(*) AS n ${q}`)).rows[0]!.n);
      if (n === 0) continue;
      const rs = await ex.execute({ sql: `SELECT rowid AS id ${q} ORDER BY rowid LIMIT ?`, args: [limit] });
      out.push({ column: `${table}.${col}`, count: n, sample: rs.rows.map((r) => Number(r.id)) });
    }
  }
  return out;
}
