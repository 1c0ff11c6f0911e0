/**
 * The per-process temporal source recall uses: every consolidation link's
 * ends and timestamps held in memory, reloaded whenever the store's
 * link-set version moved (every link write bumps it in its own
 * transaction, so a `cairn resolve` in another process is seen on the next
 * recall), and chunk times read from the recall index's labels, falling
 * back to the store for ids the labels lack. One primary-key read per call.
 */
import { allLinkTimes, linksVersion, temporalRows, type ChunkTimes, type LinkTimes } from "../store/consolidation.ts";
import type { Exec } from "../store/db.ts";
import type { TemporalSource } from "./recall-filter.ts";

/** Chunk times as the recall index labels hold them. */
export type LabelLookup = (id: number) => { createdMs: number; flagged: boolean; expiresMs?: number } | undefined;

/** Builds the cached source. */
export function cachedTemporalSource(ex: Exec, labels: LabelLookup): TemporalSource {
  let version: string | undefined;
  let byChunk = new Map<number, LinkTimes[]>();
  const refresh = async () => {
    const v = await linksVersion(ex);
    if (v === version) return;
    const next = new Map<number, LinkTimes[]>();
    for (const l of await allLinkTimes(ex)) {
      for (const end of [l.from, l.to]) {
        const list = next.get(end);
        if (list) list.push(l);
        else next.set(end, [l]);
      }
    }
    byChunk = next;
    version = v;
  };
  return {
    async load(ids) {
      await refresh();
      const links = new Set<LinkTimes>();
      const wanted = new Set(ids);
      for (const id of ids) {
        for (const l of byChunk.get(id) ?? []) {
          links.add(l);
          wanted.add(l.from).add(l.to);
        }
      }
      for (const id of wanted) for (const l of byChunk.get(id) ?? []) links.add(l);
      const times = new Map<number, ChunkTimes>();
      const missing: number[] = [];
      for (const id of wanted) {
        const l = labels(id);
        if (l) times.set(id, l.expiresMs === undefined ? { createdMs: l.createdMs, flagged: l.flagged } : { createdMs: l.createdMs, flagged: l.flagged, expiresMs: l.expiresMs });
        else missing.push(id);
      }
      if (missing.length) for (const [id, c] of (await temporalRows(ex, missing)).times) times.set(id, c);
      return { links: [...links], times };
    },
  };
}
