// The request-guard services as the composition root builds them (SPEC §5, §8): configuration reaches the authenticator,
// the rate limiter and the watchdogs; a refusal becomes one audit row and one /metrics count. The process-level ports
// (exit, alert, log) are recorded, since a test cannot let the watchdog end its own process.
import { describe, expect, it } from "vitest";
import { importHs256Secret } from "../../src/auth/jwt-keys.ts";
import type { Credentials } from "../../src/auth/load-credentials.ts";
import { createSecurityServices, type SecurityDeps } from "../../src/auth/security-services.ts";
import { hashSubject } from "../../src/authz/subject-hash.ts";
import { parseConfig } from "../../src/config/parse-config.ts";
import { nowS, signJwt } from "./_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
const MIB = 1048576;

function build(env: Record<string, string>, credentials: Credentials = { jwtKeys: {}, required: false }, rss = 10 * MIB, more: Partial<SecurityDeps> = {}) {
  const audit: unknown[] = [];
  const exits: number[] = [];
  const alerts: unknown[] = [];
  const logs: unknown[] = [];
  const s = createSecurityServices({
    config: parseConfig(env), credentials, clock: () => new Date(), rssBytes: () => rss,
    audit: async (ev) => void audit.push(ev), exit: (c) => void exits.push(c),
    alert: (kind, message) => void alerts.push({ kind, message }), log: (level, message) => void logs.push({ level, message }),
    ...more,
  });
  return { s, audit, exits, alerts, logs };
}
const metric = (text: string, line: RegExp) => line.exec(text)?.[1];

describe("createSecurityServices", () => {
  it("records a refusal as one audit row keyed by the hashed subject, with the tenant only when the principal has one", async () => {
    const { s, audit } = build({});
    await s.recordRefusal({ reason: "role_missing", method: "POST", route: "/ingest", principal: { subject: "alice", tenant: "acme", roles: ["reader"], kind: "jwt" } });
    await s.recordRefusal({ reason: "roleless_denied", method: "GET", route: "/domains/:name", principal: { subject: "bob", roles: [], kind: "jwt" } });
    await s.recordRefusal({ reason: "role_missing", method: "GET", route: "/audit", principal: { subject: "carol", roles: [], kind: "jwt" } });
    expect(audit[0]).toEqual({
      action: "authz_refused", actor: hashSubject("alice"), target: "POST /ingest",
      detail: { reason: "role_missing", method: "POST", route: "/ingest", subject_hash: hashSubject("alice"), principal_kind: "jwt", tenant: "acme" },
    });
    expect(audit[1]).toEqual({
      action: "authz_refused", actor: hashSubject("bob"), target: "GET /domains/:name",
      detail: { reason: "roleless_denied", method: "GET", route: "/domains/:name", subject_hash: hashSubject("bob"), principal_kind: "jwt" },
    });
    expect(Object.keys((audit[1] as { detail: object }).detail)).not.toContain("tenant");
    const text = s.renderMetrics();
    expect(metric(text, /^cairn_authz_refusals_total\{reason="role_missing"\} (\d+)$/m)).toBe("2");
    expect(metric(text, /^cairn_authz_refusals_total\{reason="roleless_denied"\} (\d+)$/m)).toBe("1");
  });

  it("renders the sampled gauges: RSS, requests in flight, rate-limit buckets and evictions", () => {
    const { s } = build({ RATE_LIMIT_MAX_KEYS: "4" }, undefined, 200 * MIB);
    const release = s.slots.open("GET /stats", 0);
    s.slots.open("POST /recall", 0);
    for (const ip of ["a", "b", "c", "d", "e"]) s.rateLimiter.hit(ip, 0);
    let text = s.renderMetrics();
    expect(metric(text, /^brain_rss_mib (\S+)$/m)).toBe("200");
    expect(metric(text, /^cairn_http_inflight_requests (\d+)$/m)).toBe("2");
    expect(Number(metric(text, /^cairn_rate_limit_buckets (\d+)$/m))).toBe(s.rateLimiter.size());
    expect(s.rateLimiter.size()).toBeLessThanOrEqual(4);
    expect(Number(metric(text, /^cairn_rate_limit_evictions_total (\d+)$/m))).toBeGreaterThan(0);
    release();
    text = s.renderMetrics();
    expect(metric(text, /^cairn_http_inflight_requests (\d+)$/m)).toBe("1");
  });

  it("passes the configured rate limit, roleless posture and channel secret through", () => {
    const { s } = build({ CAIRN_RATE_LIMIT_MAX: "2", CAIRN_RATE_LIMIT_WINDOW_S: "5", CAIRN_RBAC_ROLELESS_POSTURE: "deny" }, undefined, 0, { channelWebhookSecret: "whsec_x" });
    expect(s.rateLimit).toMatchObject({ max: 2, windowMs: 5000 });
    expect(s.rolelessPosture).toBe("deny");
    expect(s.channelWebhookSecret).toBe("whsec_x");
    expect([s.rateLimiter.hit("ip", 0).allowed, s.rateLimiter.hit("ip", 1).allowed, s.rateLimiter.hit("ip", 2).allowed]).toEqual([true, true, false]);
    expect(s.rateLimiter.hit("ip", 5001).allowed).toBe(true);
  });

  it("builds the authenticator from the credentials with the configured issuer and audience", async () => {
    const credentials: Credentials = { jwtKeys: { HS256: await importHs256Secret(HS) }, required: true };
    const { s } = build({ CAIRN_JWT_SECRET_FILE: "/x", CAIRN_JWT_ISSUER: "idp", CAIRN_JWT_AUDIENCE: "cairn" }, credentials);
    expect(s.authenticator.required).toBe(true);
    const tok = (c: Record<string, unknown>) => `Bearer ${signJwt("HS256", { sub: "alice", exp: nowS() + 600, ...c }, HS)}`;
    expect((await s.authenticator.authenticate({ authorization: tok({ iss: "idp", aud: "cairn" }), acceptsCapability: false })).ok).toBe(true);
    expect(await s.authenticator.authenticate({ authorization: tok({ aud: "cairn" }), acceptsCapability: false })).toEqual({ ok: false, reason: "invalid" });
    expect(await s.authenticator.authenticate({ authorization: tok({ iss: "idp" }), acceptsCapability: false })).toEqual({ ok: false, reason: "invalid" });
    expect(await s.authenticator.authenticate({ authorization: tok({ iss: "idp", aud: "cairn", exp: nowS() - 120 }), acceptsCapability: false }))
      .toEqual({ ok: false, reason: "expired" });
    expect(build({}).s.authenticator.required).toBe(false);
  });

  it("wires the RSS watchdog to CAIRN_MAX_RSS_MIB and CAIRN_RSS_RESTART: warn, then alert and exit on the second sample over", () => {
    const over = build({ CAIRN_MAX_RSS_MIB: "100", CAIRN_RSS_RESTART: "1" }, undefined, 150 * MIB);
    expect(over.s.rss.tick()).toBe(1);
    expect(over.exits).toEqual([]);
    expect(over.s.rss.tick()).toBe(2);
    expect(over.exits).toEqual([1]);
    expect(over.alerts).toEqual([{ kind: "rss_over_envelope", message: "Resident set over the envelope on two consecutive samples" }]);
    expect(over.logs.map((l) => (l as { level: string }).level)).toEqual(["warn", "error"]);
    const noRestart = build({ CAIRN_MAX_RSS_MIB: "100" }, undefined, 150 * MIB);
    noRestart.s.rss.tick();
    noRestart.s.rss.tick();
    expect(noRestart.exits).toEqual([]);
    expect(noRestart.alerts).toHaveLength(1);
    const under = build({ CAIRN_MAX_RSS_MIB: "100", CAIRN_RSS_RESTART: "1" }, undefined, 100 * MIB);
    expect([under.s.rss.tick(), under.s.rss.tick()]).toEqual([0, 0]);
    expect(under.logs).toEqual([]);
  });

  it("flags a request slot held past five minutes in the log", () => {
    const { s, logs } = build({});
    s.slots.open("POST /import", 0);
    expect(s.slots.tick(300_000)).toBe(0);
    expect(s.slots.tick(300_001)).toBe(1);
    expect(logs).toEqual([{ level: "warn", message: "connection watchdog: slot held too long" }]);
  });
});
