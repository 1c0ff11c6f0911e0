/**
 * Entity and relationship-edge rows (SPEC §2.6). Edges are bi-temporal:
 * retiring sets `superseded_at`, nothing is ever deleted here.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** A stored entity. */
export interface EntityRow {
  id: number;
  domain: string;
  name: string;
  displayName: string;
  type?: string;
}

/** A stored relationship edge with its four timestamps. */
export interface EdgeRow {
  id: number;
  domain: string;
  fromId: number;
  toId: number;
  type: string;
  validAt?: string;
  invalidAt?: string;
  createdAt: string;
  supersededAt?: string;
  edgeSource: string;
  chunkId?: number;
}

const opt = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/** Finds an entity by its lowercased name in a domain. */
export async function findEntity(ex: Exec, domain: string, name: string): Promise<EntityRow | undefined> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: "SELECT id, domain, name, display_name, type FROM entities WHERE domain = ? AND name = ?",
    args: [domain, name],
  });
  if (!rs.rows.length) return undefined;
  const r = rs.rows[0];
  const e: EntityRow = { id: Number(r.id), domain: String(r.domain), name: String(r.name), displayName: String(r.display_name) };
  if (r.type !== null) e.type = String(r.type);
  return e;
}

/**
 * Inserts the entity if absent; an existing entity keeps its type unless it
 * has none (derived edges such as markdown's must not overwrite a declared
 * type). Returns the id and whether the row is new.
 */
export async function ensureEntity(
  ex: Exec,
  e: { domain: string; name: string; displayName: string; type?: string },
  now: string,
): Promise<{ id: number; created: boolean }> {
  ex = localOf(ex);
  const found = await findEntity(ex, e.domain, e.name);
  if (found) {
    if (found.type === undefined && e.type !== undefined) {
      await ex.execute({ sql: "UPDATE entities SET type = ? WHERE id = ?", args: [e.type, found.id] });
    }
    return { id: found.id, created: false };
  }
  const rs = await ex.execute({
    sql: "INSERT INTO entities (domain, name, display_name, type, created_at) VALUES (?, ?, ?, ?, ?) RETURNING id",
    args: [e.domain, e.name, e.displayName, e.type ?? null, now],
  });
  return { id: Number(rs.rows[0].id), created: true };
}

/** Inserts the entity or updates its type when given; returns its id. */
export async function upsertEntity(
  ex: Exec,
  e: { domain: string; name: string; displayName: string; type?: string },
  now: string,
): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `INSERT INTO entities (domain, name, display_name, type, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT(domain, name) DO UPDATE SET type = COALESCE(excluded.type, entities.type)
          RETURNING id`,
    args: [e.domain, e.name, e.displayName, e.type ?? null, now],
  });
  return Number(rs.rows[0].id);
}

/** Exported row mapper for the read module. */
export function edgeFromRow(r: Record<string, unknown>): EdgeRow {
  return rowToEdge(r);
}

function rowToEdge(r: Record<string, unknown>): EdgeRow {
  const e: EdgeRow = {
    id: Number(r.id), domain: String(r.domain), fromId: Number(r.from_id), toId: Number(r.to_id), type: String(r.type),
    createdAt: String(r.created_at), edgeSource: String(r.edge_source),
  };
  const va = opt(r.valid_at), ia = opt(r.invalid_at), sa = opt(r.superseded_at);
  if (va !== undefined) e.validAt = va;
  if (ia !== undefined) e.invalidAt = ia;
  if (sa !== undefined) e.supersededAt = sa;
  if (r.chunk_id !== null && r.chunk_id !== undefined) e.chunkId = Number(r.chunk_id);
  return e;
}

/** The edge columns, in `rowToEdge` order. */
export const EDGE_COLS = "id, domain, from_id, to_id, type, valid_at, invalid_at, created_at, superseded_at, edge_source, chunk_id";

/** The current (not superseded) edges for one triple. */
export async function currentEdgesFor(ex: Exec, fromId: number, type: string, toId: number): Promise<EdgeRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT ${EDGE_COLS} FROM relations WHERE from_id = ? AND type = ? AND to_id = ? AND superseded_at IS NULL ORDER BY id`,
    args: [fromId, type, toId],
  });
  return rs.rows.map((r) => rowToEdge(r as unknown as Record<string, unknown>));
}

/** Every version (current and retired) of one triple, oldest first. */
export async function edgeVersionsFor(ex: Exec, fromId: number, type: string, toId: number): Promise<EdgeRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT ${EDGE_COLS} FROM relations WHERE from_id = ? AND type = ? AND to_id = ? ORDER BY created_at, id`,
    args: [fromId, type, toId],
  });
  return rs.rows.map((r) => rowToEdge(r as unknown as Record<string, unknown>));
}

/** Inserts an edge row; returns its id. */
export async function insertEdge(ex: Exec, e: Omit<EdgeRow, "id">): Promise<number> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `INSERT INTO relations (domain, from_id, to_id, type, valid_at, invalid_at, created_at, superseded_at, edge_source, chunk_id)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [e.domain, e.fromId, e.toId, e.type, e.validAt ?? null, e.invalidAt ?? null, e.createdAt, e.supersededAt ?? null,
      e.edgeSource, e.chunkId ?? null],
  });
  return Number(rs.lastInsertRowid);
}

/** Retires an edge: sets its transaction-time end (never deletes). */
export async function retireEdge(ex: Exec, id: number, supersededAt: string): Promise<void> {
  ex = localOf(ex);
  await ex.execute({ sql: "UPDATE relations SET superseded_at = ? WHERE id = ?", args: [supersededAt, id] });
}

/** One entity–chunk link; `subject` when the chunk is about the entity rather than only mentioning it. */
export interface EntityChunkLink {
  entityId: number;
  chunkId: number;
  subject: boolean;
}

/** Links entities to a chunk (idempotent; a subject link is never downgraded to a mention). */
export async function linkEntityChunks(ex: Exec, links: readonly EntityChunkLink[]): Promise<void> {
  ex = localOf(ex);
  for (let i = 0; i < links.length; i += 300) {
    const part = links.slice(i, i + 300);
    await ex.execute({
      sql: `INSERT INTO entity_chunks (entity_id, chunk_id, subject) VALUES ${part.map(() => "(?, ?, ?)").join(", ")}
            ON CONFLICT(entity_id, chunk_id) DO UPDATE SET subject = MAX(entity_chunks.subject, excluded.subject)`,
      args: part.flatMap((l) => [l.entityId, l.chunkId, l.subject ? 1 : 0]),
    });
  }
}

/** Nulls the owning-chunk reference of edges a deleted chunk produced (SPEC §3). */
export async function releaseEdgesOfChunk(ex: Exec, chunkId: number): Promise<void> {
  ex = localOf(ex);
  await ex.execute({ sql: "UPDATE relations SET chunk_id = NULL WHERE chunk_id = ?", args: [chunkId] });
}

/** Global entity and relation totals (SPEC §2.5 with multi_db=false). */
export async function graphTotals(ex: Exec): Promise<{ entities: number; relations: number }> {
  ex = localOf(ex);
  const rs = await ex.execute(
    "SELECT (SELECT COUNT(*) FROM entities) AS e, (SELECT COUNT(*) FROM relations WHERE superseded_at IS NULL) AS r",
  );
  return { entities: Number(rs.rows[0].e), relations: Number(rs.rows[0].r) };
}
