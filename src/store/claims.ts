/**
 * Claim schemas, claims and claim evidence (SPEC §2.12, §4.11; migration 65),
 * plus the one read the verifier needs: what the store knows about each
 * evidence chunk id (present, flagged, expired, tombstoned, superseded by an
 * approved consolidation link, its UMP records' lifecycle, stale vault links).
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** A stored claim schema. */
export interface ClaimSchemaRow {
  id: number;
  name: string;
  schemaJson: string;
  schemaSha256: string;
  createdAt: string;
}

/** Claim states: filed, then verified or failed by each verify. */
export type ClaimStatus = "filed" | "verified" | "failed";

/** A stored claim with its evidence (in filing order). */
export interface ClaimRow {
  id: number;
  schemaId: number;
  claimJson: string;
  claimSha256: string;
  runId?: number;
  status: ClaimStatus;
  reasonsJson?: string;
  createdAt: string;
  verifiedAt?: string;
  evidence: { chunkId: number; contentHash?: string }[];
}

/** What the store knows about one evidence chunk id. */
export interface EvidenceState {
  chunkId: number;
  exists: boolean;
  contentHash?: string;
  flagged: boolean;
  expiresAt?: string;
  tombstoned: boolean;
  /** Newer chunks that supersede this one through approved consolidation links. */
  supersededBy: number[];
  /** UMP record rows on the chunk: how many, and how many are current (not tombstoned, no valid_to). */
  umpRows: number;
  umpCurrent: number;
  umpTombstoned: number;
  /** Vault file links: stale ones (the file changed) and current ones. */
  vaultStale: number;
  vaultCurrent: number;
}

const schemaOf = (r: Row): ClaimSchemaRow => ({
  id: Number(r.id), name: String(r.name), schemaJson: String(r.schema_json), schemaSha256: String(r.schema_sha256), createdAt: String(r.created_at),
});

/** Inserts a schema; returns its id. */
export async function insertClaimSchema(ex: Exec, s: Omit<ClaimSchemaRow, "id">): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO claim_schemas (name, schema_json, schema_sha256, created_at) VALUES (?, ?, ?, ?)",
    args: [s.name, s.schemaJson, s.schemaSha256, s.createdAt],
  });
  return Number(rs.lastInsertRowid);
}

/** A schema by id. */
export async function getClaimSchema(ex: Exec, id: number): Promise<ClaimSchemaRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM claim_schemas WHERE id = ?", args: [id] });
  return rs.rows[0] ? schemaOf(rs.rows[0]) : undefined;
}

/** A schema by name. */
export async function findClaimSchemaByName(ex: Exec, name: string): Promise<ClaimSchemaRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM claim_schemas WHERE name = ?", args: [name] });
  return rs.rows[0] ? schemaOf(rs.rows[0]) : undefined;
}

/** Schemas after an id, oldest first. */
export async function listClaimSchemas(ex: Exec, o: { after: number; limit: number }): Promise<ClaimSchemaRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM claim_schemas WHERE id > ? ORDER BY id LIMIT ?", args: [o.after, o.limit] });
  return rs.rows.map(schemaOf);
}

/** Inserts a claim and its evidence rows (inside the caller's transaction); returns the claim id. */
export async function insertClaim(
  ex: Exec,
  c: { schemaId: number; claimJson: string; claimSha256: string; runId?: number; createdAt: string; evidence: { chunkId: number; contentHash?: string }[] },
): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO claims (schema_id, claim_json, claim_sha256, run_id, status, created_at) VALUES (?, ?, ?, ?, 'filed', ?)",
    args: [c.schemaId, c.claimJson, c.claimSha256, c.runId ?? null, c.createdAt],
  });
  const id = Number(rs.lastInsertRowid);
  for (const [i, e] of c.evidence.entries()) {
    await ex.execute({
      sql: "INSERT INTO claim_evidence (claim_id, position, chunk_id, content_hash) VALUES (?, ?, ?, ?)",
      args: [id, i, e.chunkId, e.contentHash ?? null],
    });
  }
  return id;
}

function claimOf(r: Row, evidence: ClaimRow["evidence"]): ClaimRow {
  const c: ClaimRow = {
    id: Number(r.id), schemaId: Number(r.schema_id), claimJson: String(r.claim_json), claimSha256: String(r.claim_sha256),
    status: String(r.status) as ClaimStatus, createdAt: String(r.created_at), evidence,
  };
  if (r.run_id !== null) c.runId = Number(r.run_id);
  if (r.reasons_json !== null) c.reasonsJson = String(r.reasons_json);
  if (r.verified_at !== null) c.verifiedAt = String(r.verified_at);
  return c;
}

async function evidenceOf(ex: Exec, ids: number[]): Promise<Map<number, ClaimRow["evidence"]>> {
  const out = new Map<number, ClaimRow["evidence"]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const rs = await ex.execute({
    sql: `SELECT claim_id, chunk_id, content_hash FROM claim_evidence WHERE claim_id IN (${ids.map(() => "?").join(",")}) ORDER BY claim_id, position`,
    args: ids,
  });
  for (const r of rs.rows) {
    const e: { chunkId: number; contentHash?: string } = { chunkId: Number(r.chunk_id) };
    if (r.content_hash !== null) e.contentHash = String(r.content_hash);
    out.get(Number(r.claim_id))?.push(e);
  }
  return out;
}

/** A claim with its evidence. */
export async function getClaim(ex: Exec, id: number): Promise<ClaimRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM claims WHERE id = ?", args: [id] });
  if (!rs.rows[0]) return undefined;
  return claimOf(rs.rows[0], (await evidenceOf(ex, [id])).get(id) ?? []);
}

/** Claims after an id, oldest first, optionally of one status or schema. */
export async function listClaims(ex: Exec, o: { after: number; limit: number; status?: ClaimStatus; schemaId?: number }): Promise<ClaimRow[]> {
  const where = ["id > ?"];
  const args: (number | string)[] = [o.after];
  if (o.status) { where.push("status = ?"); args.push(o.status); }
  if (o.schemaId !== undefined) { where.push("schema_id = ?"); args.push(o.schemaId); }
  const rs = await ex.execute({ sql: `SELECT * FROM claims WHERE ${where.join(" AND ")} ORDER BY id LIMIT ?`, args: [...args, o.limit] });
  const ev = await evidenceOf(ex, rs.rows.map((r) => Number(r.id)));
  return rs.rows.map((r) => claimOf(r, ev.get(Number(r.id)) ?? []));
}

/** Records a verify outcome. */
export async function setClaimOutcome(ex: Exec, id: number, o: { status: ClaimStatus; reasonsJson: string; at: string }): Promise<void> {
  await ex.execute({ sql: "UPDATE claims SET status = ?, reasons_json = ?, verified_at = ? WHERE id = ?", args: [o.status, o.reasonsJson, o.at, id] });
}

/** Content hashes of the chunk ids that exist now. */
export async function chunkHashesOf(ex: Exec, ids: readonly number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (ids.length === 0) return out;
  const rs = await localOf(ex).execute({ sql: `SELECT id, content_hash FROM chunks WHERE id IN (${ids.map(() => "?").join(",")})`, args: [...ids] });
  for (const r of rs.rows) out.set(Number(r.id), String(r.content_hash));
  return out;
}

/** What the store knows about each evidence id (at most a few hundred ids: one statement per table). */
export async function evidenceStates(ex: Exec, ids: readonly number[]): Promise<Map<number, EvidenceState>> {
  const uniq = [...new Set(ids)];
  const out = new Map<number, EvidenceState>(uniq.map((id) => [id, {
    chunkId: id, exists: false, flagged: false, tombstoned: false, supersededBy: [], umpRows: 0, umpCurrent: 0, umpTombstoned: 0, vaultStale: 0, vaultCurrent: 0,
  }]));
  if (uniq.length === 0) return out;
  const marks = uniq.map(() => "?").join(",");
  // Chunks and tombstones are per-domain rows (`localOf`: every database in multi-database mode); the rest is global.
  const chunks = await localOf(ex).execute({ sql: `SELECT id, content_hash, flagged, expires_at FROM chunks WHERE id IN (${marks})`, args: uniq });
  for (const r of chunks.rows) {
    const s = out.get(Number(r.id))!;
    s.exists = true;
    s.contentHash = String(r.content_hash);
    s.flagged = Number(r.flagged) === 1;
    if (r.expires_at !== null) s.expiresAt = String(r.expires_at);
  }
  const tomb = await localOf(ex).execute({ sql: `SELECT DISTINCT chunk_id FROM tombstones WHERE chunk_id IN (${marks})`, args: uniq });
  for (const r of tomb.rows) out.get(Number(r.chunk_id))!.tombstoned = true;
  const links = await ex.execute({
    sql: `SELECT to_chunk_id, from_chunk_id FROM consolidation_links
          WHERE kind = 'supersedes' AND status = 'approved' AND to_chunk_id IN (${marks}) ORDER BY from_chunk_id`,
    args: uniq,
  });
  for (const r of links.rows) out.get(Number(r.to_chunk_id))!.supersededBy.push(Number(r.from_chunk_id));
  const ump = await ex.execute({
    sql: `SELECT chunk_id, COUNT(*) AS n,
                 SUM(CASE WHEN status <> 'tombstoned' AND valid_to IS NULL THEN 1 ELSE 0 END) AS cur,
                 SUM(CASE WHEN status = 'tombstoned' THEN 1 ELSE 0 END) AS tomb
          FROM ump_records WHERE chunk_id IN (${marks}) GROUP BY chunk_id`,
    args: uniq,
  });
  for (const r of ump.rows) {
    const s = out.get(Number(r.chunk_id))!;
    s.umpRows = Number(r.n);
    s.umpCurrent = Number(r.cur);
    s.umpTombstoned = Number(r.tomb);
  }
  const vault = await ex.execute({
    sql: `SELECT chunk_id, SUM(stale) AS stale, SUM(1 - stale) AS cur FROM file_source_chunks WHERE chunk_id IN (${marks}) GROUP BY chunk_id`,
    args: uniq,
  });
  for (const r of vault.rows) {
    const s = out.get(Number(r.chunk_id))!;
    s.vaultStale = Number(r.stale);
    s.vaultCurrent = Number(r.cur);
  }
  return out;
}
