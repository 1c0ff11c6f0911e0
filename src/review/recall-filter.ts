/**
 * The temporal seam recall calls on its fused candidates (SPEC §3
 * supersede row, §2.2 `conflict` and `decayed`), as of `at` or now:
 *
 * - a chunk is *superseded* at T when an approved `supersedes` link points
 *   at it (approved at or before T, not undone by T) from a stored chunk;
 *   superseded chunks are dropped, so current recall stops returning the
 *   old fact while recall with `at` before the approval still does;
 * - a chunk is *decayed* at T when its `expires_at` is at or before T:
 *   dropped unless the caller opted in, then marked `decayed`;
 * - a served chunk is in *conflict* when a `supersedes` or `contradicts`
 *   link that is approved at T (and not undone by T) joins it to another
 *   chunk that is current at T (stored, created by T, unflagged, not
 *   superseded, not decayed). A link that is only proposed marks nothing:
 *   agents are shown a conflict only once a human has confirmed it.
 *
 * The filter is pure over a `TemporalSource`: `dbTemporalSource` reads
 * everything in one statement; the composition root uses the cached source
 * (`link-cache.ts`: links in memory, chunk times from the recall labels).
 */
import type { TemporalView } from "../recall/ports.ts";
import { temporalRows, type ChunkTimes, type LinkTimes } from "../store/consolidation.ts";
import type { Exec } from "../store/db.ts";

/** Options of one filter call. */
export interface TemporalOptions {
  /** Historical view (epoch ms); absent means now. */
  atMs?: number;
  /** The caller opted into decayed entries. */
  includeDecayed: boolean;
  /** The clock's now (epoch ms). */
  nowMs: number;
}

/** Where the filter reads links (of the candidates and of their neighbours) and chunk times. */
export interface TemporalSource {
  load(ids: readonly number[]): Promise<{ links: LinkTimes[]; times: Map<number, ChunkTimes> }>;
}

/** A source that reads the store directly, one statement per call. */
export function dbTemporalSource(ex: Exec): TemporalSource {
  return { load: (ids) => temporalRows(ex, ids) };
}

/** A link's state at time `t` (epoch ms), from its timestamps. */
export function linkStateAt(l: Pick<LinkTimes, "createdAt" | "approvedAt" | "closedAt">, t: number): "absent" | "proposed" | "approved" | "closed" {
  if (Date.parse(l.createdAt) > t) return "absent";
  const closed = l.closedAt !== undefined && Date.parse(l.closedAt) <= t;
  if (l.approvedAt !== undefined && Date.parse(l.approvedAt) <= t && !closed) return "approved";
  if (closed) return "closed";
  return "proposed";
}

/** Drop, conflict and decayed sets for candidate `ids`. */
export async function temporalFilter(src: TemporalSource, ids: number[], opts: TemporalOptions): Promise<TemporalView> {
  const view: TemporalView = { drop: new Set(), conflict: new Set(), decayed: new Set() };
  if (!ids.length) return view;
  const t = opts.atMs ?? opts.nowMs;
  const asked = new Set(ids);
  const { links, times } = await src.load(ids);
  const states = links.map((l) => linkStateAt(l, t));
  const superseded = new Set<number>();
  links.forEach((l, i) => {
    if (l.kind === "supersedes" && states[i] === "approved" && times.has(l.from)) superseded.add(l.to);
  });
  const decayedAt = (id: number) => {
    const e = times.get(id)?.expiresMs;
    return e !== undefined && e <= t;
  };
  const current = (id: number) => {
    const c = times.get(id);
    return c !== undefined && !c.flagged && c.createdMs <= t && !superseded.has(id) && !decayedAt(id);
  };
  for (const id of ids) {
    if (superseded.has(id)) view.drop.add(id);
    else if (decayedAt(id)) (opts.includeDecayed ? view.decayed : view.drop).add(id);
  }
  links.forEach((l, i) => {
    if (states[i] !== "approved") return;
    for (const [self, other] of [[l.from, l.to], [l.to, l.from]]) {
      if (asked.has(self) && !view.drop.has(self) && current(other)) view.conflict.add(self);
    }
  });
  return view;
}
