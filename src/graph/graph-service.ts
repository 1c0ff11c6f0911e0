/**
 * The graph routes' service (SPEC §4.6): an entity with its one-hop
 * relations, the current edges between two entities, the bounded
 * traversal (depth ≤ 4, ≤ 256 visited, `kind`, `at`, `explain`) and one
 * relationship's version history. Reads go to the store, the source of
 * truth; the in-memory model is only the recall leg's.
 *
 * Choices where the spec is silent (documented in openapi.yaml):
 * - `domain` is an optional query parameter on every route. Without it a
 *   name is looked up in every domain, `global` first, then by domain name.
 * - Names are returned in display form; lookups are case-insensitive.
 * - Absent valid-window or transaction-end timestamps are omitted, never null.
 * - `at` is a transaction-time view: the edges the store believed at that
 *   instant (`created_at ≤ at < superseded_at`).
 */
import { MemoryError } from "../core/errors.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import type { Db } from "../store/db.ts";
import { currentEdgesBetween, edgeById, edgesTouching, entitiesById, entitiesNamed } from "../store/graph-read.ts";
import { edgeVersionsFor, type EdgeRow, type EntityRow } from "../store/graph-rows.ts";
import { edgesAt, historyOrder } from "./bitemporal.ts";
import { kindFilter, traverse, type NodeRef, type TraverseEdge } from "./traverse.ts";
import { entityReadKeys } from "./validate.ts";
import { unionReader } from "../store/domain-dbs.ts";

/** An entity in responses. */
export interface EntityView {
  id: number;
  name: string;
  domain: string;
  type?: string;
}

/** A relationship edge in responses. */
export interface EdgeView {
  id: number;
  from: NodeRef;
  relation: string;
  to: NodeRef;
  created_at: string;
  valid_at?: string;
  invalid_at?: string;
  superseded_at?: string;
  edge_source: string;
  chunk_id?: number;
}

/** Query parameters of `GET /graph/traverse`, as strings. */
export interface TraverseParams {
  start?: string;
  max_depth?: string;
  explain?: string;
  kind?: string;
  at?: string;
  domain?: string;
  direction?: string;
}

/** The graph service. */
export interface GraphService {
  entity(name: string, domain?: string): Promise<{ entity: EntityView; relations: EdgeView[] }>;
  relations(from: string | undefined, to: string | undefined, domain?: string): Promise<{ relations: EdgeView[] }>;
  traverse(p: TraverseParams): Promise<Record<string, unknown>>;
  history(rawId: string): Promise<Record<string, unknown>>;
}

const ref = (e: EntityRow): NodeRef => ({ id: e.id, name: e.displayName });

function entityView(e: EntityRow): EntityView {
  const v: EntityView = { id: e.id, name: e.displayName, domain: e.domain };
  if (e.type !== undefined) v.type = e.type;
  return v;
}

function edgeView(e: EdgeRow, ents: Map<number, EntityRow>): EdgeView {
  const v: EdgeView = {
    id: e.id, from: ref(ents.get(e.fromId)!), relation: e.type, to: ref(ents.get(e.toId)!), created_at: e.createdAt, edge_source: e.edgeSource,
  };
  if (e.validAt !== undefined) v.valid_at = e.validAt;
  if (e.invalidAt !== undefined) v.invalid_at = e.invalidAt;
  if (e.supersededAt !== undefined) v.superseded_at = e.supersededAt;
  if (e.chunkId !== undefined) v.chunk_id = e.chunkId;
  return v;
}

function parseAt(raw: string | undefined): string | undefined {
  if (raw === undefined || raw === "") return undefined;
  const ms = Date.parse(raw.includes(" ") && !raw.includes("T") ? raw.replace(" ", "T") + "Z" : raw);
  if (Number.isNaN(ms)) throw new MemoryError("invalid_request", "at must be an ISO-8601 timestamp", { field: "at" });
  return new Date(ms).toISOString();
}

function parseBool(raw: string | undefined, field: string): boolean {
  if (raw === undefined || raw === "" || raw === "false" || raw === "0") return false;
  if (raw === "true" || raw === "1") return true;
  throw new MemoryError("invalid_request", `${field} must be true or false`, { field });
}

function parseDepth(raw: string | undefined): number {
  if (raw === undefined || raw === "") return 2;
  if (!/^[0-9]{1,3}$/.test(raw)) throw new MemoryError("invalid_request", "max_depth must be a whole number from 0 to 4", { field: "max_depth", min: 0, max: 4 });
  return Number(raw);
}

/** Builds the service over the store. */
export function createGraphService(deps: { db: Db; audit?: (ev: { action: string; target: string; detail: Record<string, unknown> }) => Promise<unknown> }): GraphService {
  // Multi-database mode: entities and edges are read from every domain's database (ids are unique across them).
  const ex = unionReader(deps.db);
  const domainOf = (raw: string | undefined) => (raw === undefined || raw === "" ? undefined : normalizeDomainName(raw));
  // Issue 22 item 3: reads find any stored name (the SPEC §2.6 pattern is for input).
  const named = async (raw: string | undefined, field: string, domain?: string): Promise<EntityRow[]> => {
    for (const key of entityReadKeys(raw ?? "", field)) {
      const rows = await entitiesNamed(ex, key, domain);
      if (rows.length) return rows;
    }
    return [];
  };
  const lookup = async (raw: string | undefined, field: string, domain?: string): Promise<EntityRow | undefined> =>
    (await named(raw, field, domain))[0];
  const namesFor = async (edges: readonly EdgeRow[]) => entitiesById(ex, edges.flatMap((e) => [e.fromId, e.toId]));

  return {
    async entity(name, domainRaw) {
      const e = await lookup(name, "name", domainOf(domainRaw));
      if (e === undefined) throw new MemoryError("not_found", "entity not found");
      const edges = (await edgesTouching(ex, e.id)).filter((r) => r.supersededAt === undefined);
      const ents = await namesFor(edges);
      return { entity: entityView(e), relations: edges.map((r) => edgeView(r, ents)) };
    },

    async relations(fromRaw, toRaw, domainRaw) {
      const domain = domainOf(domainRaw);
      const froms = await named(fromRaw, "from", domain);
      const tos = new Map((await named(toRaw, "to", domain)).map((e) => [e.domain, e] as const));
      // Entities are per domain: the pair is looked up in the first domain that holds both.
      const from = froms.find((f) => tos.has(f.domain));
      if (from === undefined) return { relations: [] };
      const edges = await currentEdgesBetween(ex, from.id, tos.get(from.domain)!.id);
      const ents = await namesFor(edges);
      return { relations: edges.map((r) => edgeView(r, ents)) };
    },

    async traverse(p) {
      const domain = domainOf(p.domain);
      const depth = parseDepth(p.max_depth);
      const explain = parseBool(p.explain, "explain");
      kindFilter(p.kind); // validate before any lookup
      const at = parseAt(p.at);
      const direction = p.direction === undefined || p.direction === "" ? "both" : p.direction;
      if (direction !== "both" && direction !== "out" && direction !== "in") {
        throw new MemoryError("invalid_request", "direction must be out, in or both", { field: "direction" });
      }
      const start = await lookup(p.start, "start", domain);
      if (start === undefined) throw new MemoryError("not_found", "start entity not found");
      const rowOf = new Map<number, EdgeRow>();
      const neighbors = async (node: NodeRef): Promise<TraverseEdge[]> => {
        const rows = await edgesTouching(ex, node.id);
        const live = at === undefined ? rows.filter((r) => r.supersededAt === undefined) : edgesAt(rows, at);
        const ents = await namesFor(live);
        for (const r of live) rowOf.set(r.id, r);
        return live.map((r) => ({ id: r.id, from: ref(ents.get(r.fromId)!), to: ref(ents.get(r.toId)!), type: r.type }));
      };
      const r = await traverse(ref(start), neighbors, { maxDepth: depth, kind: p.kind || undefined, explain, direction });
      // SPEC §2.6: every edge says which source produced it and from which chunk (provenance for explain mode).
      const edgeOut = (e: TraverseEdge) => {
        const row = rowOf.get(e.id)!;
        const o: Record<string, unknown> = { id: e.id, from: e.from, relation: e.type, to: e.to, edge_source: row.edgeSource };
        if (row.chunkId !== undefined) o.chunk_id = row.chunkId;
        return o;
      };
      const out: Record<string, unknown> = {
        start: r.start, domain: start.domain, max_depth: r.maxDepth, nodes: r.nodes, edges: r.edges.map(edgeOut), truncated: r.truncated,
      };
      if (at !== undefined) out.at = at;
      if (r.paths) out.paths = r.paths;
      return out;
    },

    async history(rawId) {
      if (!/^[0-9]{1,18}$/.test(rawId) || !Number.isSafeInteger(Number(rawId))) {
        throw new MemoryError("invalid_id", "id must be a numeric relationship id", { field: "id" }, 400);
      }
      const edge = await edgeById(ex, Number(rawId));
      if (edge === undefined) throw new MemoryError("not_found", "relationship not found");
      const versions = await edgeVersionsFor(ex, edge.fromId, edge.type, edge.toId);
      const ents = await namesFor([edge]);
      // SPEC §4.6: reading a relationship's history is audited.
      await deps.audit?.({ action: "graph_history_read", target: `relation:${edge.id}`, detail: { versions: versions.length } });
      return {
        id: edge.id, domain: edge.domain, from: ref(ents.get(edge.fromId)!), relation: edge.type, to: ref(ents.get(edge.toId)!),
        versions: historyOrder(versions).map((v) => {
          const o: Record<string, unknown> = { id: v.id, current: v.current, created_at: v.created_at };
          if (v.valid_at !== null) o.valid_at = v.valid_at;
          if (v.invalid_at !== null) o.invalid_at = v.invalid_at;
          if (v.superseded_at !== null) o.superseded_at = v.superseded_at;
          return o;
        }),
      };
    },
  };
}
