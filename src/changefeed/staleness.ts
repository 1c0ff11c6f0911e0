/** A bounded window of staleness samples (ms) with its percentiles, for `/health/db` and the bench. */

/** The window. */
export interface StalenessWindow {
  add(ms: number): void;
  /** The percentiles are omitted while there are no samples (SPEC §4: optional fields are omitted, never null). */
  summary(): { samples: number; p50?: number; p99?: number; max?: number };
}

/** Keeps the last `size` samples. */
export function createStalenessWindow(size: number): StalenessWindow {
  const buf: number[] = [];
  let next = 0;
  return {
    add(ms) {
      const v = Math.max(0, ms);
      if (buf.length < size) buf.push(v);
      else buf[next] = v;
      next = (next + 1) % size;
    },
    summary() {
      if (!buf.length) return { samples: 0 };
      const s = [...buf].sort((a, b) => a - b);
      const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
      return { samples: s.length, p50: at(0.5), p99: at(0.99), max: s[s.length - 1] };
    },
  };
}
