/**
 * Writes the entities and relations of one ingest inside its transaction
 * (SPEC §4.2, §2.6). Relations must name entities of the request or of the
 * domain, else the whole write fails. Edges follow the bi-temporal planner
 * (`src/graph/bitemporal.ts`, SPEC §3): an identical valid window is a
 * `duplicate` with no writes and the same id; a changed window retires the
 * current edge with `superseded_at` equal to the new edge's `created_at`.
 * Every edge records its source and the chunk it came from; the chunk is
 * linked to the entities it declares, relates and mentions (for the recall
 * graph leg), and the changes are collected in a `GraphDelta`.
 */
import { MemoryError } from "../core/errors.ts";
import type { EntityInput, RelationInput } from "../core/types.ts";
import { planEdgeUpsert } from "../graph/bitemporal.ts";
import type { GraphDelta } from "../graph/graph-delta.ts";
import type { Exec } from "../store/db.ts";
import { edgeVersionsFor, findEntity, insertEdge, linkEntityChunks, retireEdge, upsertEntity, type EdgeRow } from "../store/graph-rows.ts";

/** Input for one graph write. */
export interface GraphWrite {
  domain: string;
  entities: EntityInput[];
  relations: RelationInput[];
  chunkId?: number;
  now: string;
  edgeSource: string;
  /** Collects the rows written, for the in-memory graph. */
  delta?: GraphDelta;
  /** Further entity ids the chunk mentions (linked to the chunk with the request's own). */
  mentions?: Iterable<number>;
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
    const id = await upsertEntity(tx, { domain: g.domain, name, displayName: e.name, type: e.type }, g.now);
    ids.set(name, id);
    if (g.delta) g.delta.entities.push((await findEntity(tx, g.domain, name))!);
  }
  const out: EdgeOutcome[] = [];
  for (let i = 0; i < g.relations.length; i++) {
    const r = g.relations[i];
    const from = await resolve(tx, g.domain, r.from, ids, i, "from");
    const to = await resolve(tx, g.domain, r.to, ids, i, "to");
    out.push(await upsertEdge(tx, {
      domain: g.domain, fromId: from, toId: to, type: r.type, validAt: r.valid_at, invalidAt: r.invalid_at, chunkId: g.chunkId,
      now: g.now, edgeSource: g.edgeSource,
    }, g.delta));
  }
  if (g.chunkId !== undefined) {
    // Declared entities are what the chunk is about; relation endpoints it names and its text mentions are mentions.
    const chunkId = g.chunkId;
    const declared = new Set(g.entities.map((e) => ids.get(e.name.toLowerCase())!));
    const linked = new Set([...ids.values(), ...(g.mentions ?? [])]);
    const links = [...linked].map((entityId) => ({ entityId, chunkId, subject: declared.has(entityId) }));
    await linkEntityChunks(tx, links);
    g.delta?.links.push(...links);
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

/** One edge to upsert. */
export interface EdgeUpsert {
  domain: string;
  fromId: number;
  toId: number;
  type: string;
  validAt?: string;
  invalidAt?: string;
  chunkId?: number;
  now: string;
  edgeSource: string;
}

/** Bi-temporal edge upsert for one triple, executing the pure planner's plan. */
export async function upsertEdge(tx: Exec, e: EdgeUpsert, delta?: GraphDelta): Promise<EdgeOutcome> {
  const versions = await edgeVersionsFor(tx, e.fromId, e.type, e.toId);
  const plan = planEdgeUpsert(versions, { valid_at: e.validAt, invalid_at: e.invalidAt }, e.now);
  if (plan.action === "duplicate") return { id: plan.id, status: "duplicate" };
  if (plan.action === "supersede") {
    await retireEdge(tx, plan.retireId, plan.supersededAt);
    delta?.retired.push({ id: plan.retireId, supersededAt: plan.supersededAt });
  }
  const row: Omit<EdgeRow, "id"> = {
    domain: e.domain, fromId: e.fromId, toId: e.toId, type: e.type, createdAt: plan.newRow.createdAt, edgeSource: e.edgeSource,
  };
  if (plan.newRow.validAt !== undefined) row.validAt = plan.newRow.validAt;
  if (plan.newRow.invalidAt !== undefined) row.invalidAt = plan.newRow.invalidAt;
  if (e.chunkId !== undefined) row.chunkId = e.chunkId;
  const id = await insertEdge(tx, row);
  delta?.inserted.push({ id, ...row });
  return plan.action === "supersede" ? { id, status: "superseded", retiredId: plan.retireId } : { id, status: "created" };
}
