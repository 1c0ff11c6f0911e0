/**
 * The per-client request budget (SPEC §8): at most `max` requests per
 * `windowMs` per client, applied before authentication. Each client's window
 * opens at its first request and closes `windowMs` later (a fixed window
 * anchored per client, so a burst can never straddle two windows of one
 * client). At most `maxKeys` clients are tracked; adding one more evicts the
 * oldest 25% (by window start). Pure: the clock is passed in.
 */

/** Budget settings. */
export interface RateLimiterOptions {
  max: number;
  windowMs: number;
  maxKeys: number;
}

/** Outcome of one `hit`. */
export interface RateDecision {
  allowed: boolean;
  /** Requests left in the window after this one. */
  remaining: number;
  /** Milliseconds until the window resets. */
  resetMs: number;
}

/** A per-key fixed-window counter. */
export interface RateLimiter {
  hit(key: string, nowMs: number): RateDecision;
  /** Number of tracked keys. */
  size(): number;
  /** Keys evicted so far (for `/metrics`). */
  evictions(): number;
}

/** Builds a limiter. */
export function createRateLimiter(opts: RateLimiterOptions): RateLimiter {
  // Map iteration order is insertion order; a key is re-inserted when its window restarts,
  // so the first entries are always the oldest windows.
  const buckets = new Map<string, { start: number; count: number }>();
  let evicted = 0;
  const evictOldest = () => {
    const n = Math.max(1, Math.floor(opts.maxKeys / 4));
    let i = 0;
    for (const k of buckets.keys()) {
      if (i++ >= n) break;
      buckets.delete(k);
      evicted++;
    }
  };
  return {
    hit(key, now) {
      let b = buckets.get(key);
      if (b && now - b.start >= opts.windowMs) {
        buckets.delete(key);
        b = undefined;
      }
      if (!b) {
        if (buckets.size >= opts.maxKeys) evictOldest();
        b = { start: now, count: 0 };
        buckets.set(key, b);
      }
      const resetMs = b.start + opts.windowMs - now;
      if (b.count >= opts.max) return { allowed: false, remaining: 0, resetMs };
      b.count++;
      return { allowed: true, remaining: opts.max - b.count, resetMs };
    },
    size: () => buckets.size,
    evictions: () => evicted,
  };
}
