/**
 * The graph rows some chunks brought (issue 20): their entity links, the
 * edges they own and the entities both touch — what another writer's
 * chunks add to a node's in-memory graph model.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";
import { entitiesById } from "./graph-read.ts";
import { EDGE_COLS, edgeFromRow, type EdgeRow, type EntityChunkLink, type EntityRow } from "./graph-rows.ts";

/** Entities, owned edges and entity links of the chunks. */
export async function graphOfChunks(ex: Exec, chunkIds: readonly number[]): Promise<{ entities: EntityRow[]; edges: EdgeRow[]; links: EntityChunkLink[] }> {
  ex = localOf(ex);
  const edges: EdgeRow[] = [];
  const links: EntityChunkLink[] = [];
  for (let i = 0; i < chunkIds.length; i += 500) {
    const part = chunkIds.slice(i, i + 500);
    const marks = part.map(() => "?").join(",");
    const l = await ex.execute({ sql: `SELECT entity_id, chunk_id, subject FROM entity_chunks WHERE chunk_id IN (${marks})`, args: [...part] });
    for (const r of l.rows) links.push({ entityId: Number(r.entity_id), chunkId: Number(r.chunk_id), subject: Number(r.subject) === 1 });
    const e = await ex.execute({ sql: `SELECT ${EDGE_COLS} FROM relations WHERE chunk_id IN (${marks}) ORDER BY id`, args: [...part] });
    for (const r of e.rows) edges.push(edgeFromRow(r as unknown as Record<string, unknown>));
  }
  if (!links.length && !edges.length) return { entities: [], edges, links };
  const ids = [...links.map((l) => l.entityId), ...edges.flatMap((e) => [e.fromId, e.toId])];
  return { entities: [...(await entitiesById(ex, ids)).values()], edges, links };
}
