/**
 * Erasure rows (SPEC §1 item 6, §3 erasure row, §8 "Erasure id list chunk:
 * 900 ids per statement"): locate chunks by owner or content match, purge
 * many chunks (tombstone, vectors, owned relation references, rows), delete
 * graph entities named after the subject with their edges, every id list
 * cut into statements of at most 900, and keep the issued certificates.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** SPEC §8: ids per statement in every erasure list. */
export const ERASURE_CHUNK = 900;

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** Splits ids into statement-sized parts. */
export function idParts(ids: readonly number[], size = ERASURE_CHUNK): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < ids.length; i += size) out.push(ids.slice(i, i + size));
  return out;
}

/** Chunk ids whose `meta.owner` equals `owner`. */
export async function chunkIdsByOwner(ex: Exec, owner: string): Promise<number[]> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT id FROM chunks WHERE json_extract(meta, '$.owner') = ? ORDER BY id", args: [owner] });
  return rs.rows.map((r) => Number(r.id));
}

/** Chunk ids whose content or title contains `needle` (ASCII case-insensitive). */
export async function chunkIdsMatching(ex: Exec, needle: string): Promise<number[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: "SELECT id FROM chunks WHERE instr(lower(content), lower(?)) > 0 OR instr(lower(coalesce(title, '')), lower(?)) > 0 ORDER BY id",
    args: [needle, needle],
  });
  return rs.rows.map((r) => Number(r.id));
}

/** The ids among `ids` that are stored chunks. */
export async function existingChunkIds(ex: Exec, ids: readonly number[]): Promise<number[]> {
  ex = localOf(ex);
  const out: number[] = [];
  for (const part of idParts(ids)) {
    const rs = await ex.execute({ sql: `SELECT id FROM chunks WHERE id IN (${marks(part.length)})`, args: part });
    for (const r of rs.rows) out.push(Number(r.id));
  }
  return out.sort((a, b) => a - b);
}

/**
 * Purges chunks inside the caller's transaction: per part of at most 900
 * ids, records the tombstones, nulls owned relation references, removes
 * vectors and the chunk rows. Returns the number of chunk rows removed.
 */
export async function purgeChunkRows(ex: Exec, ids: readonly number[], reason: string, deletedAt: string): Promise<number> {
  ex = localOf(ex);
  const hasVectors = (await ex.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vectors'")).rows.length > 0;
  let removed = 0;
  for (const part of idParts(ids)) {
    const inList = `(${marks(part.length)})`;
    await ex.execute({
      sql: `INSERT INTO tombstones (chunk_id, domain, content_hash, reason, deleted_at)
            SELECT id, domain, content_hash, ?, ? FROM chunks WHERE id IN ${inList} ORDER BY id`,
      args: [reason, deletedAt, ...part],
    });
    await ex.execute({ sql: `UPDATE relations SET chunk_id = NULL WHERE chunk_id IN ${inList}`, args: part });
    if (hasVectors) await ex.execute({ sql: `DELETE FROM chunk_vectors WHERE chunk_id IN ${inList}`, args: part });
    const rs = await ex.execute({ sql: `DELETE FROM chunks WHERE id IN ${inList}`, args: part });
    removed += rs.rowsAffected;
  }
  return removed;
}

/** Entity ids whose name or display name contains `needle` (ASCII case-insensitive). */
export async function entityIdsMatching(ex: Exec, needle: string): Promise<number[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: "SELECT id FROM entities WHERE instr(lower(name), lower(?)) > 0 OR instr(lower(display_name), lower(?)) > 0 ORDER BY id",
    args: [needle, needle],
  });
  return rs.rows.map((r) => Number(r.id));
}

/** Deletes entities and every relationship edge touching them (erasure overrides edge retention), 900 ids per statement. */
export async function deleteEntitiesWithEdges(ex: Exec, ids: readonly number[]): Promise<{ entities: number; relations: number }> {
  ex = localOf(ex);
  let entities = 0;
  let relations = 0;
  for (const part of idParts(ids)) {
    const inList = `(${marks(part.length)})`;
    relations += (await ex.execute({ sql: `DELETE FROM relations WHERE from_id IN ${inList}`, args: part })).rowsAffected;
    relations += (await ex.execute({ sql: `DELETE FROM relations WHERE to_id IN ${inList}`, args: part })).rowsAffected;
    entities += (await ex.execute({ sql: `DELETE FROM entities WHERE id IN ${inList}`, args: part })).rowsAffected;
  }
  return { entities, relations };
}

/** A stored deletion certificate. */
export interface CertificateRow {
  id: string;
  issuedAt: string;
  auditRowId: number;
  digest: string;
  body: Record<string, unknown>;
}

/** Stores an issued certificate. */
export async function insertCertificate(ex: Exec, c: CertificateRow): Promise<void> {
  await ex.execute({
    sql: "INSERT INTO erasure_certificates (id, issued_at, audit_row_id, digest, body) VALUES (?, ?, ?, ?, ?)",
    args: [c.id, c.issuedAt, c.auditRowId, c.digest, JSON.stringify(c.body)],
  });
}

/** Reads one certificate. */
export async function getCertificate(ex: Exec, id: string): Promise<CertificateRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM erasure_certificates WHERE id = ?", args: [id] });
  if (!rs.rows.length) return undefined;
  const r = rs.rows[0];
  return { id: String(r.id), issuedAt: String(r.issued_at), auditRowId: Number(r.audit_row_id), digest: String(r.digest), body: JSON.parse(String(r.body)) };
}

/** Counts issued certificates. */
export async function countCertificates(ex: Exec): Promise<number> {
  return Number((await ex.execute("SELECT COUNT(*) AS n FROM erasure_certificates")).rows[0].n);
}
