/**
 * Read queries of the knowledge graph (SPEC §4.6 routes, §1 step 6 recall
 * leg): entities by name, edges touching an entity or between two, one
 * triple's history, and the bulk load the in-memory graph is built from.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";
import { EDGE_COLS, edgeFromRow, type EdgeRow, type EntityChunkLink, type EntityRow } from "./graph-rows.ts";

function entityFromRow(r: Record<string, unknown>): EntityRow {
  const e: EntityRow = { id: Number(r.id), domain: String(r.domain), name: String(r.name), displayName: String(r.display_name) };
  if (r.type !== null && r.type !== undefined) e.type = String(r.type);
  return e;
}

/** Entities with this lowercased name, in every domain (`global` first, then by domain name). */
export async function entitiesNamed(ex: Exec, name: string, domain?: string): Promise<EntityRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT id, domain, name, display_name, type FROM entities WHERE name = ? ${domain === undefined ? "" : "AND domain = ?"}
          ORDER BY CASE WHEN domain = 'global' THEN 0 ELSE 1 END, domain`,
    args: domain === undefined ? [name] : [name, domain],
  });
  // Re-sorted here too: a multi-database read (`unionReader`) concatenates each database's ordered rows.
  const rank = (d: string) => (d === "global" ? 0 : 1);
  return rs.rows.map((r) => entityFromRow(r as unknown as Record<string, unknown>))
    .sort((a, b) => rank(a.domain) - rank(b.domain) || (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
}

/** Entities by id. */
export async function entitiesById(ex: Exec, ids: readonly number[]): Promise<Map<number, EntityRow>> {
  ex = localOf(ex);
  const out = new Map<number, EntityRow>();
  const uniq = [...new Set(ids)];
  for (let i = 0; i < uniq.length; i += 500) {
    const part = uniq.slice(i, i + 500);
    const rs = await ex.execute({
      sql: `SELECT id, domain, name, display_name, type FROM entities WHERE id IN (${part.map(() => "?").join(",")})`,
      args: part,
    });
    for (const r of rs.rows) {
      const e = entityFromRow(r as unknown as Record<string, unknown>);
      out.set(e.id, e);
    }
  }
  return out;
}

/** Entities of a domain with these lowercased names. */
export async function entitiesByNames(ex: Exec, domain: string, names: readonly string[]): Promise<EntityRow[]> {
  ex = localOf(ex);
  const out: EntityRow[] = [];
  const uniq = [...new Set(names)];
  for (let i = 0; i < uniq.length; i += 500) {
    const part = uniq.slice(i, i + 500);
    const rs = await ex.execute({
      sql: `SELECT id, domain, name, display_name, type FROM entities WHERE domain = ? AND name IN (${part.map(() => "?").join(",")})`,
      args: [domain, ...part],
    });
    for (const r of rs.rows) out.push(entityFromRow(r as unknown as Record<string, unknown>));
  }
  return out;
}

/** Whether a domain has any entity (a batch into one without skips mention extraction). */
export async function domainHasEntities(ex: Exec, domain: string): Promise<boolean> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: "SELECT 1 FROM entities WHERE domain = ? LIMIT 1", args: [domain] });
  return rs.rows.length > 0;
}

/** Every edge version touching an entity (either end), by id. */
export async function edgesTouching(ex: Exec, entityId: number): Promise<EdgeRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT ${EDGE_COLS} FROM relations WHERE from_id = ? UNION SELECT ${EDGE_COLS} FROM relations WHERE to_id = ? ORDER BY id`,
    args: [entityId, entityId],
  });
  return rs.rows.map((r) => edgeFromRow(r as unknown as Record<string, unknown>));
}

/** Current edges from one entity to another. */
export async function currentEdgesBetween(ex: Exec, fromId: number, toId: number): Promise<EdgeRow[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT ${EDGE_COLS} FROM relations WHERE from_id = ? AND to_id = ? AND superseded_at IS NULL ORDER BY type, id`,
    args: [fromId, toId],
  });
  return rs.rows.map((r) => edgeFromRow(r as unknown as Record<string, unknown>));
}

/** One edge row by id. */
export async function edgeById(ex: Exec, id: number): Promise<EdgeRow | undefined> {
  ex = localOf(ex);
  const rs = await ex.execute({ sql: `SELECT ${EDGE_COLS} FROM relations WHERE id = ?`, args: [id] });
  return rs.rows.length ? edgeFromRow(rs.rows[0] as unknown as Record<string, unknown>) : undefined;
}

/**
 * Reads everything the in-memory recall graph is built from — entities,
 * every edge version, entity–chunk links — in pages of `pageSize` rows by
 * key order, so a large graph never sits in memory twice as raw rows.
 */
export async function scanGraph(ex: Exec, sink: {
  entity(e: EntityRow): void;
  edge(e: EdgeRow): void;
  link(l: EntityChunkLink): void;
}, pageSize = 10_000): Promise<void> {
  ex = localOf(ex);
  for (let after = 0; ;) {
    const rs = await ex.execute({ sql: "SELECT id, domain, name, display_name, type FROM entities WHERE id > ? ORDER BY id LIMIT ?", args: [after, pageSize] });
    for (const r of rs.rows) sink.entity(entityFromRow(r as unknown as Record<string, unknown>));
    if (rs.rows.length < pageSize) break;
    after = Number(rs.rows[rs.rows.length - 1].id);
  }
  for (let after = 0; ;) {
    const rs = await ex.execute({ sql: `SELECT ${EDGE_COLS} FROM relations WHERE id > ? ORDER BY id LIMIT ?`, args: [after, pageSize] });
    for (const r of rs.rows) sink.edge(edgeFromRow(r as unknown as Record<string, unknown>));
    if (rs.rows.length < pageSize) break;
    after = Number(rs.rows[rs.rows.length - 1].id);
  }
  for (let afterE = 0, afterC = 0; ;) {
    const rs = await ex.execute({
      sql: `SELECT entity_id, chunk_id, subject FROM entity_chunks WHERE (entity_id, chunk_id) > (?, ?) ORDER BY entity_id, chunk_id LIMIT ?`,
      args: [afterE, afterC, pageSize],
    });
    for (const r of rs.rows) sink.link({ entityId: Number(r.entity_id), chunkId: Number(r.chunk_id), subject: Number(r.subject) === 1 });
    if (rs.rows.length < pageSize) break;
    const last = rs.rows[rs.rows.length - 1];
    [afterE, afterC] = [Number(last.entity_id), Number(last.chunk_id)];
  }
}

/** Names of the registered domains. */
export async function domainNames(ex: Exec): Promise<Set<string>> {
  ex = localOf(ex);
  const rs = await ex.execute("SELECT name FROM domains");
  return new Set(rs.rows.map((r) => String(r.name)));
}
