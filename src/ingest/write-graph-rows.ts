/**
 * Writes the entities and relations of one ingest inside its transaction
 * (SPEC §4.2, §2.6). Relations must name entities of the request or of the
 * domain, else the whole write fails. A relation whose current edge has the
 * identical valid window is a no-op; a changed window retires the old edge
 * with `superseded_at` equal to the new edge's `created_at` (SPEC §3).
 */
import { MemoryError } from "../core/errors.ts";
import type { EntityInput, RelationInput } from "../core/types.ts";
import type { Exec } from "../store/db.ts";
import { currentEdgesFor, findEntity, insertEdge, retireEdge, upsertEntity } from "../store/graph-rows.ts";

/** Input for one graph write. */
export interface GraphWrite {
  domain: string;
  entities: EntityInput[];
  relations: RelationInput[];
  chunkId?: number;
  now: string;
  edgeSource: string;
}

/** Result of one edge upsert. */
export interface EdgeOutcome {
  id: number;
  status: "created" | "duplicate" | "superseded";
  retiredId?: number;
}

/** Upserts entities, then edges; returns per-relation outcomes. */
export async function writeGraphRows(tx: Exec, g: GraphWrite): Promise<EdgeOutcome[]> {
  const ids = new Map<string, number>();
  for (const e of g.entities) {
    const name = e.name.toLowerCase();
    ids.set(name, await upsertEntity(tx, { domain: g.domain, name, displayName: e.name, type: e.type }, g.now));
  }
  const out: EdgeOutcome[] = [];
  for (let i = 0; i < g.relations.length; i++) {
    const r = g.relations[i];
    const from = await resolve(tx, g.domain, r.from, ids, i, "from");
    const to = await resolve(tx, g.domain, r.to, ids, i, "to");
    out.push(await upsertEdge(tx, { domain: g.domain, fromId: from, toId: to, type: r.type, validAt: r.valid_at, invalidAt: r.invalid_at, chunkId: g.chunkId, now: g.now, edgeSource: g.edgeSource }));
  }
  return out;
}

async function resolve(tx: Exec, domain: string, name: string, ids: Map<string, number>, index: number, side: string): Promise<number> {
  const key = name.toLowerCase();
  const known = ids.get(key);
  if (known !== undefined) return known;
  const row = await findEntity(tx, domain, key);
  if (!row) {
    throw new MemoryError("relation_invalid", `relation ${index} names entity '${name}' which is neither in entities[] nor in the domain`, { index, field: side });
  }
  ids.set(key, row.id);
  return row.id;
}

/** Bi-temporal edge upsert for one triple. */
export async function upsertEdge(tx: Exec, e: {
  domain: string; fromId: number; toId: number; type: string; validAt?: string; invalidAt?: string; chunkId?: number; now: string; edgeSource: string;
}): Promise<EdgeOutcome> {
  const current = await currentEdgesFor(tx, e.fromId, e.type, e.toId);
  const same = current.find((c) => (c.validAt ?? null) === (e.validAt ?? null) && (c.invalidAt ?? null) === (e.invalidAt ?? null));
  if (same) return { id: same.id, status: "duplicate" };
  for (const c of current) await retireEdge(tx, c.id, e.now);
  const id = await insertEdge(tx, {
    domain: e.domain, fromId: e.fromId, toId: e.toId, type: e.type, validAt: e.validAt, invalidAt: e.invalidAt,
    createdAt: e.now, edgeSource: e.edgeSource, chunkId: e.chunkId,
  });
  return current.length ? { id, status: "superseded", retiredId: current[0].id } : { id, status: "created" };
}
