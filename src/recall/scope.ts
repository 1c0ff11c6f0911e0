/**
 * Domain routing and the candidate filter (SPEC §4.1 Routing, §1 step 2):
 * a forced domain searches only itself; otherwise the query vector is
 * compared with each domain centroid and the top one at or above 0.55 is
 * primary (mixed with `global` unless strict); with no confident route the
 * primary is `global` and, unless strict, the search fans out everywhere.
 */
import type { IngestKind } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallIndex } from "./recall-index.ts";

/** Where a search looks. `domains` undefined means every domain. */
export interface SearchScope {
  primary: string;
  domains?: ReadonlySet<string>;
  routed: boolean;
  forced: boolean;
  routeScore?: number;
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** Chooses the primary domain and the scope. */
export function chooseScope(q: RecallQuery, index: RecallIndex, qvec: Float32Array | undefined, threshold: number): SearchScope {
  if (q.domain !== undefined) return { primary: q.domain, domains: new Set([q.domain]), routed: false, forced: true };
  let best: { name: string; score: number } | undefined;
  if (qvec) {
    for (const [name, c] of index.centroids()) {
      if (name === GLOBAL_DOMAIN) continue;
      const s = dot(qvec, c);
      if (!best || s > best.score || (s === best.score && name < best.name)) best = { name, score: s };
    }
  }
  if (best && best.score >= threshold) {
    const domains = q.strict ? new Set([best.name]) : new Set([best.name, GLOBAL_DOMAIN]);
    return { primary: best.name, domains, routed: true, forced: false, routeScore: Math.round(best.score * 1e4) / 1e4 };
  }
  return { primary: GLOBAL_DOMAIN, domains: q.strict ? new Set([GLOBAL_DOMAIN]) : undefined, routed: false, forced: false };
}

/** The storage-level filter every leg applies (flagged, scope, kinds, since, at, decay). */
export function candidateFilter(q: RecallQuery, index: RecallIndex, scope: SearchScope, nowMs: number): (id: number) => boolean {
  const kinds: ReadonlySet<IngestKind> | undefined = q.kinds ? new Set(q.kinds) : undefined;
  if (q.sinceInvalid) return () => false; // SPEC §4.1: a malformed since contributes no hits, never a 400
  return (id) => {
    const l = index.labels.get(id);
    if (!l || l.flagged) return false;
    if (scope.domains && !scope.domains.has(l.domain)) return false;
    if (kinds && !kinds.has(l.source)) return false;
    if (q.sinceMs !== undefined && !(l.createdMs > q.sinceMs)) return false;
    if (q.atMs !== undefined && l.createdMs > q.atMs) return false;
    const ref = q.atMs ?? nowMs;
    if (!q.includeDecayed && l.expiresMs !== undefined && l.expiresMs <= ref) return false;
    return true;
  };
}
