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
 *   link that is open at T (proposed, or approved and not undone) joins it
 *   to another chunk that is current at T (stored, created by T, unflagged,
 *   not superseded, not decayed).
 *
 * Plugged into the recall engine with `setTemporalFilter`; UMP recall and
 * any other reader call the same function.
 */
import type { TemporalView } from "../recall/ports.ts";
import { chunkTimes, linksTouching, type LinkRow } from "../store/consolidation.ts";
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

type LinkState = "absent" | "proposed" | "approved" | "closed";

/** A link's state at time `t` (epoch ms), from its timestamps. */
export function linkStateAt(l: LinkRow, t: number): LinkState {
  if (Date.parse(l.createdAt) > t) return "absent";
  const closed = l.closedAt !== undefined && Date.parse(l.closedAt) <= t;
  if (l.approvedAt !== undefined && Date.parse(l.approvedAt) <= t && !closed) return "approved";
  if (closed) return "closed";
  return "proposed";
}

/** Drop, conflict and decayed sets for candidate `ids`. */
export async function temporalFilter(ex: Exec, ids: number[], opts: TemporalOptions): Promise<TemporalView> {
  const view: TemporalView = { drop: new Set(), conflict: new Set(), decayed: new Set() };
  if (!ids.length) return view;
  const t = opts.atMs ?? opts.nowMs;
  const first = await linksTouching(ex, ids);
  const asked = new Set(ids);
  const wanted = new Set(ids);
  for (const l of first) wanted.add(l.from).add(l.to);
  // Links of the other ends too: whether a neighbour is itself superseded decides whether it is current.
  const links = wanted.size > asked.size ? await linksTouching(ex, [...wanted]) : first;
  const times = await chunkTimes(ex, [...wanted]);
  const supersededBy = new Map<number, number[]>();
  for (const l of links) {
    if (l.kind === "supersedes" && linkStateAt(l, t) === "approved" && times.has(l.from)) {
      supersededBy.set(l.to, [...(supersededBy.get(l.to) ?? []), l.from]);
    }
  }
  const decayedAt = (id: number) => {
    const e = times.get(id)?.expiresAt;
    return e !== undefined && Date.parse(e) <= t;
  };
  const current = (id: number) => {
    const c = times.get(id);
    return c !== undefined && !c.flagged && Date.parse(c.createdAt) <= t && !supersededBy.has(id) && !decayedAt(id);
  };
  for (const id of ids) {
    if (supersededBy.has(id)) view.drop.add(id);
    else if (decayedAt(id)) (opts.includeDecayed ? view.decayed : view.drop).add(id);
  }
  for (const l of links) {
    const s = linkStateAt(l, t);
    if (s !== "proposed" && s !== "approved") continue;
    for (const [self, other] of [[l.from, l.to], [l.to, l.from]]) {
      if (asked.has(self) && !view.drop.has(self) && current(other)) view.conflict.add(self);
    }
  }
  return view;
}
