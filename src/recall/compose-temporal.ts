/**
 * Several features want the one temporal seam of the recall engine (UMP
 * supersede and retention, governance consolidation). `composeTemporalFilters`
 * runs every filter over the same candidates and unites their verdicts, so
 * each can apply without knowing the others.
 */
import type { TemporalFilter, TemporalView } from "./ports.ts";

/** One filter that drops, flags and decays what any of `filters` does. */
export function composeTemporalFilters(filters: readonly TemporalFilter[]): TemporalFilter {
  return async (ids, opts) => {
    const out: TemporalView = { drop: new Set(), conflict: new Set(), decayed: new Set() };
    for (const f of filters) {
      const v = await f(ids, opts);
      for (const id of v.drop) out.drop.add(id);
      for (const id of v.conflict) out.conflict.add(id);
      for (const id of v.decayed) out.decayed.add(id);
    }
    return out;
  };
}
