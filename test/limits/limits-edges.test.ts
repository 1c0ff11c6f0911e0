import { describe, expect, it } from "vitest";
import { clientIdentity } from "../../src/limits/client-identity.ts";
import { createRateLimiter } from "../../src/limits/rate-limiter.ts";

// Issue 27 (mutation testing): the edges of the SPEC §8 per-client budget, as the decisions a client would get.
describe("rate limiter edges", () => {
  it("counts down remaining and the time to the window's end on every allowed request", () => {
    const rl = createRateLimiter({ max: 3, windowMs: 1_000, maxKeys: 10 });
    expect(rl.hit("a", 100)).toEqual({ allowed: true, remaining: 2, resetMs: 1_000 });
    expect(rl.hit("a", 400)).toEqual({ allowed: true, remaining: 1, resetMs: 700 });
    expect(rl.hit("a", 1_099)).toEqual({ allowed: true, remaining: 0, resetMs: 1 });
    expect(rl.hit("a", 1_099)).toEqual({ allowed: false, remaining: 0, resetMs: 1 });
    expect(rl.hit("a", 1_100)).toEqual({ allowed: true, remaining: 2, resetMs: 1_000 });
  });

  it("evicts one client when a cap under four is hit", () => {
    const rl = createRateLimiter({ max: 1, windowMs: 60_000, maxKeys: 2 });
    rl.hit("a", 0);
    rl.hit("b", 1);
    rl.hit("c", 2);
    expect([rl.size(), rl.evictions()]).toEqual([2, 1]);
    expect(rl.hit("a", 3).allowed).toBe(true); // a was the oldest and went
    expect(rl.hit("c", 3).allowed).toBe(false);
  });

  it("treats a client whose window restarted as new when choosing whom to evict", () => {
    const rl = createRateLimiter({ max: 1, windowMs: 100, maxKeys: 4 });
    rl.hit("a", 0);
    rl.hit("b", 50);
    rl.hit("c", 60);
    rl.hit("a", 120); // a's window restarts: it is now the newest
    rl.hit("d", 130);
    rl.hit("e", 140); // cap hit: one client (the oldest window, b) goes
    expect(rl.evictions()).toBe(1);
    expect(rl.hit("a", 150).allowed).toBe(false); // still tracked, budget spent
    expect(rl.hit("b", 150).allowed).toBe(true); // evicted: a fresh window
  });
});

describe("client identity edges", () => {
  it("falls back to the peer when X-Forwarded-For holds no entry", () => {
    expect(clientIdentity("10.0.0.1", " , ,", true)).toBe("10.0.0.1");
  });

  it("answers unknown for an empty peer", () => {
    expect(clientIdentity("", null, false)).toBe("unknown");
    expect(clientIdentity("", "", true)).toBe("unknown");
  });

  it("counts IPv4-mapped and differently cased addresses as one client, from the peer or the proxy", () => {
    expect(clientIdentity("::FFFF:192.0.2.1", null, false)).toBe("192.0.2.1");
    expect(clientIdentity("10.0.0.1", "1.1.1.1, ::ffff:192.0.2.1", true)).toBe("192.0.2.1");
    expect(clientIdentity("2001:DB8::1", null, false)).toBe("2001:db8::1");
    // Only a dotted tail is an IPv4 address; a hex-form mapped address stays as written.
    expect(clientIdentity("::ffff:c000:201", null, false)).toBe("::ffff:c000:201");
  });
});
