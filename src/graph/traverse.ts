/**
 * Bounded breadth-first walk for `GET /graph/traverse` (SPEC §4.6, §8):
 * depth at most 4, at most 256 visited nodes, `kind` an exact edge type or a
 * prefix when it ends with `:`, and with `explain` the hop chain from the
 * start to every visited node as `{from:{id,name}, relation, to:{id,name}}`.
 *
 * Pure over an adjacency port: `neighbors(node)` returns the edges touching
 * the node (sync or async; the store answers it, already filtered to current
 * edges or to the `at` view with `edgesAt`). Edges are walked in both
 * directions by default; a hop always reports the edge's stored direction,
 * so a chain may contain a hop that points back toward the start. The walk
 * is deterministic: each node's edges are visited in (type, neighbour id,
 * edge id) order whatever order the port returns them in.
 */
import { MemoryError } from "../core/errors.ts";
import { isRelationType } from "./validate.ts";

/** An entity as the walk reports it. */
export interface NodeRef {
  id: number;
  name: string;
}

/** A current edge touching a node. */
export interface TraverseEdge {
  id: number;
  from: NodeRef;
  to: NodeRef;
  type: string;
}

/** One hop of an explain chain (SPEC §2.6 graph hop). */
export interface Hop {
  from: NodeRef;
  relation: string;
  to: NodeRef;
}

/** The adjacency port: edges touching `node`. */
export type NeighborFn = (node: NodeRef) => Iterable<TraverseEdge> | Promise<Iterable<TraverseEdge>>;

/** Walk options; limits are clamped to the spec's bounds. */
export interface TraverseOptions {
  /** Hops from the start, 0 to 4 (larger values are clamped to 4). Default 2. */
  maxDepth?: number;
  /** Exact edge type, or a namespace prefix ending in `:`. */
  kind?: string;
  /** Which edges to follow from a node. Default `both`. */
  direction?: "out" | "in" | "both";
  /** Include hop chains. Default false. */
  explain?: boolean;
  /** Visited-node cap, at most 256 (the default). */
  maxVisited?: number;
}

/** The walk's result. */
export interface TraverseResult {
  start: NodeRef;
  maxDepth: number;
  /** Visited nodes in visit order, the start first, with their hop distance. */
  nodes: (NodeRef & { depth: number })[];
  /** Every followed edge between visited nodes, once each, in walk order. */
  edges: TraverseEdge[];
  /** With `explain`: the hop chain to each visited node but the start. */
  paths?: { node: NodeRef; hops: Hop[] }[];
  /** True when the visited cap stopped the walk from adding reachable nodes. */
  truncated: boolean;
}

/** The spec's bounds (SPEC §8). */
export const TRAVERSE_LIMITS = { maxDepth: 4, maxVisited: 256 } as const;

/** Checks `kind` and returns a predicate on edge types. Throws `relation_invalid`. */
export function kindFilter(kind: string | undefined): (type: string) => boolean {
  if (kind === undefined || kind === "") return () => true;
  if (kind.endsWith(":")) {
    if (!/^[a-z]+:$/.test(kind)) throw new MemoryError("relation_invalid", "kind prefix must match ^[a-z]+:$", { field: "kind" });
    return (type) => type.startsWith(kind);
  }
  if (!isRelationType(kind)) throw new MemoryError("relation_invalid", "kind must be a relation type or a prefix ending with ':'", { field: "kind" });
  return (type) => type === kind;
}

/** Walks breadth-first from `start` within the bounds; see the module comment for the rules. */
export async function traverse(start: NodeRef, neighbors: NeighborFn, opts: TraverseOptions = {}): Promise<TraverseResult> {
  const rawDepth = opts.maxDepth ?? 2;
  if (!Number.isInteger(rawDepth) || rawDepth < 0) {
    throw new MemoryError("invalid_request", "max_depth must be a whole number from 0 to 4", { field: "max_depth", min: 0, max: 4 });
  }
  const maxDepth = Math.min(rawDepth, TRAVERSE_LIMITS.maxDepth);
  const cap = Math.max(1, Math.min(opts.maxVisited ?? TRAVERSE_LIMITS.maxVisited, TRAVERSE_LIMITS.maxVisited));
  const matches = kindFilter(opts.kind);
  const direction = opts.direction ?? "both";

  const nodes: (NodeRef & { depth: number })[] = [{ id: start.id, name: start.name, depth: 0 }];
  const parent = new Map<number, { via: TraverseEdge; prev: number } | null>([[start.id, null]]);
  const edges: TraverseEdge[] = [];
  const edgeSeen = new Set<number>();
  let truncated = false;

  for (let head = 0; head < nodes.length; head++) {
    const node = nodes[head];
    if (node.depth >= maxDepth) continue;
    const touching = [...(await neighbors({ id: node.id, name: node.name }))]
      .filter((e) => e.from.id !== e.to.id && matches(e.type))
      .filter((e) => direction === "both" || (direction === "out" ? e.from.id === node.id : e.to.id === node.id))
      .map((e) => ({ e, other: e.from.id === node.id ? e.to : e.from }))
      .sort((a, b) => (a.e.type < b.e.type ? -1 : a.e.type > b.e.type ? 1 : 0) || a.other.id - b.other.id || a.e.id - b.e.id);
    for (const { e, other } of touching) {
      if (!parent.has(other.id)) {
        if (nodes.length >= cap) {
          truncated = true;
          continue;
        }
        parent.set(other.id, { via: e, prev: node.id });
        nodes.push({ id: other.id, name: other.name, depth: node.depth + 1 });
      }
      if (!edgeSeen.has(e.id)) {
        edgeSeen.add(e.id);
        edges.push(e);
      }
    }
  }

  const result: TraverseResult = { start: { id: start.id, name: start.name }, maxDepth, nodes, edges, truncated };
  if (opts.explain === true) result.paths = nodes.slice(1).map((n) => ({ node: { id: n.id, name: n.name }, hops: chain(parent, n.id) }));
  return result;
}

function chain(parent: Map<number, { via: TraverseEdge; prev: number } | null>, id: number): Hop[] {
  const hops: Hop[] = [];
  for (let step = parent.get(id); step; step = parent.get(step.prev)) {
    const e = step.via;
    hops.push({ from: { id: e.from.id, name: e.from.name }, relation: e.type, to: { id: e.to.id, name: e.to.name } });
  }
  return hops.reverse();
}
