import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { clientIdentity } from "../../src/limits/client-identity.ts";
import { createRateLimiter } from "../../src/limits/rate-limiter.ts";

describe("per-IP budget (SPEC §8)", () => {
  it("serves exactly 10,000 requests per 60 s window by default, then refuses until the window ends", () => {
    const c = parseConfig({}).rateLimit;
    expect([c.max, c.windowMs, c.maxKeys, c.trustProxy]).toEqual([10_000, 60_000, 10_000, false]);
    const rl = createRateLimiter(c);
    let served = 0;
    for (let i = 0; i < 12_000; i++) if (rl.hit("198.51.100.7", 1_000 + i * 4).allowed) served++;
    expect(served).toBe(10_000);
    const refused = rl.hit("198.51.100.7", 60_999);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetMs: 1 });
    // The window is anchored at the client's first request; it opens again 60 s later.
    expect(rl.hit("198.51.100.7", 61_000).allowed).toBe(true);
    // Another client is unaffected throughout.
    expect(rl.hit("198.51.100.8", 30_000).allowed).toBe(true);
  });

  it("tracks at most maxKeys buckets and evicts the oldest 25% on hitting the cap", () => {
    const rl = createRateLimiter({ max: 1, windowMs: 60_000, maxKeys: 8 });
    for (let i = 0; i < 8; i++) rl.hit(`k${i}`, i);
    expect(rl.size()).toBe(8);
    expect(rl.hit("k0", 100).allowed).toBe(false); // k0 spent its budget and is still tracked
    rl.hit("k8", 200); // cap hit: k0 and k1 (the oldest two of eight) go
    expect(rl.size()).toBe(7);
    expect(rl.evictions()).toBe(2);
    expect(rl.hit("k0", 300).allowed).toBe(true); // evicted, so a fresh bucket
    expect(rl.hit("k4", 300).allowed).toBe(false); // k4 was not among the oldest: still limited
    expect(rl.size()).toBeLessThanOrEqual(8);
  });

  it("identifies the client by socket peer, and by the rightmost X-Forwarded-For entry only under trust proxy", () => {
    expect(clientIdentity("10.0.0.1", "1.1.1.1, 2.2.2.2", false)).toBe("10.0.0.1");
    expect(clientIdentity("10.0.0.1", "1.1.1.1, 2.2.2.2", true)).toBe("2.2.2.2");
    expect(clientIdentity("10.0.0.1", " 1.1.1.1 ,2.2.2.2 , ", true)).toBe("2.2.2.2");
    expect(clientIdentity("10.0.0.1", null, true)).toBe("10.0.0.1");
    expect(clientIdentity("10.0.0.1", "", true)).toBe("10.0.0.1");
    expect(clientIdentity("::ffff:127.0.0.1", null, false)).toBe("127.0.0.1");
    expect(clientIdentity(undefined, null, false)).toBe("unknown");
    expect(parseConfig({ CAIRN_TRUST_PROXY: "1" }).rateLimit.trustProxy).toBe(true);
    expect(() => parseConfig({ RATE_LIMIT_MAX_KEYS: "lots" })).toThrow(/RATE_LIMIT_MAX_KEYS/);
  });
});
