/**
 * Weighted reciprocal rank fusion (SPEC §1 step 3, k = 60): a pure function
 * over ranked id lists. Each list contributes `weight / (k + rank + 1)`
 * (rank 0 is best). Ties break by id ascending so output is deterministic.
 */

/** One ranked list to fuse. */
export interface RankedList {
  name: string;
  ids: readonly number[];
  weight: number;
}

/** One fused candidate with its per-list ranks. */
export interface Fused {
  id: number;
  score: number;
  ranks: Record<string, number>;
}

/** The spec's RRF constant. */
export const RRF_K = 60;

/** Fuses ranked lists; lists with weight 0 still record ranks but add no score. */
export function reciprocalRankFusion(lists: readonly RankedList[], k = RRF_K): Fused[] {
  const byId = new Map<number, Fused>();
  for (const l of lists) {
    l.ids.forEach((id, rank) => {
      let f = byId.get(id);
      if (!f) byId.set(id, (f = { id, score: 0, ranks: {} }));
      if (f.ranks[l.name] === undefined) {
        f.ranks[l.name] = rank;
        f.score += l.weight / (k + rank + 1);
      }
    });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The best score a candidate could reach with these weights (rank 0 everywhere). */
export function maxFusedScore(weights: readonly number[], k = RRF_K): number {
  return weights.reduce((s, w) => s + w / (k + 1), 0);
}
