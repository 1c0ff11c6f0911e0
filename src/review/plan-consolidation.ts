/**
 * The deterministic consolidation planner (`POST /consolidate/propose`):
 * a pure function from graph conflicts and chunk texts to proposed links.
 *
 * 1. Graph conflict → `contradicts`: two current edges of one domain give
 *    the same subject and relation different objects, and the two edges'
 *    valid windows overlap (an open bound overlaps everything). Disjoint
 *    windows are history, not conflict (worked at A until 2020, at B since).
 *    A relation that holds several values at once is never a conflict
 *    (`relation-cardinality.ts`: on call for two services is not a contradiction).
 * 2. Near-duplicate → `supersedes`: two unflagged chunks of one domain
 *    whose term-vector cosine is at or above the threshold (see
 *    `similarity.ts`; default 0.9).
 *
 * Links point from the newer chunk (later `created_at`, then higher id) to
 * the older one. One link per chunk pair and kind; output sorted.
 */
import type { EdgeConflict, LinkKind } from "../store/consolidation.ts";
import { isMultiValued } from "./relation-cardinality.ts";
import { nearDuplicatePairs, termVector } from "./similarity.ts";

/** A chunk the planner compares. */
export interface PlanChunk {
  id: number;
  domain: string;
  createdAt: string;
  text: string;
}

/** A link the planner proposes. */
export interface PlannedLink {
  kind: LinkKind;
  from: number;
  to: number;
  basis: Record<string, unknown>;
}

const ms = (s: string | undefined, dflt: number) => (s === undefined || Number.isNaN(Date.parse(s)) ? dflt : Date.parse(s));

/** True when two valid windows `[valid_at, invalid_at)` overlap; absent bounds are open. */
export function windowsOverlap(a: { validAt?: string; invalidAt?: string }, b: { validAt?: string; invalidAt?: string }): boolean {
  return ms(a.validAt, -Infinity) < ms(b.invalidAt, Infinity) && ms(b.validAt, -Infinity) < ms(a.invalidAt, Infinity);
}

/** Plans links from edge conflicts and chunk texts. `created` maps chunk id to created_at for ordering. */
export function planConsolidation(o: {
  conflicts: readonly EdgeConflict[];
  chunks: readonly PlanChunk[];
  created: ReadonlyMap<number, string>;
  threshold: number;
  /** Relation types the store shows listing several objects for one subject in one chunk. */
  listed?: ReadonlySet<string>;
}): PlannedLink[] {
  const newer = (a: number, b: number): [number, number] => {
    const ta = ms(o.created.get(a), 0), tb = ms(o.created.get(b), 0);
    return ta > tb || (ta === tb && a > b) ? [a, b] : [b, a];
  };
  const out = new Map<string, PlannedLink>();
  for (const c of o.conflicts) {
    if (c.a.chunkId === c.b.chunkId || !windowsOverlap(c.a, c.b) || isMultiValued(c.relation, o.listed ?? new Set())) continue;
    const [from, to] = newer(c.a.chunkId, c.b.chunkId);
    const key = `contradicts:${from}:${to}`;
    if (out.has(key)) continue;
    const [objFrom, objTo] = from === c.a.chunkId ? [c.a.object, c.b.object] : [c.b.object, c.a.object];
    out.set(key, { kind: "contradicts", from, to, basis: { rule: "graph_conflict", domain: c.domain, subject: c.subject, relation: c.relation, values: { [from]: objFrom, [to]: objTo } } });
  }
  const byDomain = new Map<string, PlanChunk[]>();
  for (const c of o.chunks) byDomain.set(c.domain, [...(byDomain.get(c.domain) ?? []), c]);
  for (const [domain, list] of [...byDomain].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = [...list].sort((a, b) => a.id - b.id);
    for (const [i, j, s] of nearDuplicatePairs(sorted.map((c) => termVector(c.text)), o.threshold)) {
      const [from, to] = newer(sorted[i].id, sorted[j].id);
      out.set(`supersedes:${from}:${to}`, { kind: "supersedes", from, to, basis: { rule: "near_duplicate", domain, similarity: s, threshold: o.threshold } });
    }
  }
  return [...out.values()].sort((a, b) => a.to - b.to || a.from - b.from || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
}
