/**
 * Builds the request-guard services of one Memory (SPEC §5, §8): the
 * authenticator, the roleless posture, the per-IP rate limiter, the metrics
 * registry, the connection and RSS watchdogs, and the refusal audit port.
 * Called once by the composition root; the HTTP binding applies them.
 */
import type { Config } from "../config/config.ts";
import type { RateLimitConfig } from "../config/security-config.ts";
import { hashSubject } from "../authz/subject-hash.ts";
import type { VerdictReason } from "../authz/oracle.ts";
import { createRateLimiter, type RateLimiter } from "../limits/rate-limiter.ts";
import { createMetrics, type Metrics } from "../ops/metrics.ts";
import { createRssWatchdog, createSlotTracker, type RssWatchdog, type SlotTracker, type WatchdogPorts } from "../ops/watchdogs.ts";
import { createAuthenticator, type Authenticator } from "./authenticator.ts";
import type { Credentials } from "./load-credentials.ts";
import type { Principal } from "./principal.ts";

/** One authorization refusal, as audited (SPEC §5 item 3). */
export interface Refusal {
  reason: VerdictReason;
  method: string;
  /** The route pattern, never the raw path. */
  route: string;
  principal: Principal;
}

/** Audit port: appends one hash-chained row. */
export type AuditPort = (ev: { action: string; actor?: string; target?: string; detail?: Record<string, unknown> }) => Promise<unknown>;

/** The guard services. */
export interface SecurityServices {
  readonly authenticator: Authenticator;
  readonly rolelessPosture: "pass" | "deny";
  readonly rateLimit: RateLimitConfig;
  readonly rateLimiter: RateLimiter;
  readonly metrics: Metrics;
  readonly slots: SlotTracker;
  readonly rss: RssWatchdog;
  /** Secret for inbound signed channel webhooks, when configured. */
  readonly channelWebhookSecret?: string;
  /** Writes the refusal's audit row (reason, method, route pattern, hashed subject, tenant). */
  recordRefusal(r: Refusal): Promise<void>;
  /** `GET /metrics` text. */
  renderMetrics(): string;
}

/** Inputs of `createSecurityServices`. */
export interface SecurityDeps {
  config: Config;
  credentials: Credentials;
  channelWebhookSecret?: string;
  clock: () => Date;
  rssBytes: () => number;
  audit: AuditPort;
  exit: (code: number) => void;
  alert: WatchdogPorts["alert"];
  log: WatchdogPorts["log"];
}

/** Builds the guard services. */
export function createSecurityServices(d: SecurityDeps): SecurityServices {
  const { config } = d;
  const metrics = createMetrics();
  const rateLimiter = createRateLimiter(config.rateLimit);
  const ports: WatchdogPorts = { log: d.log, alert: d.alert };
  const slots = createSlotTracker(config.watchdog.slotMaxMs, ports);
  const rss = createRssWatchdog({ sampleBytes: d.rssBytes, maxMib: config.maxRssMib, restart: config.watchdog.rssRestart, exit: d.exit, ...ports });
  return {
    authenticator: createAuthenticator({ credentials: d.credentials, now: d.clock, issuer: config.auth.jwtIssuer, audience: config.auth.jwtAudience }),
    rolelessPosture: config.auth.rolelessPosture,
    rateLimit: config.rateLimit,
    rateLimiter, metrics, slots, rss,
    channelWebhookSecret: d.channelWebhookSecret,
    async recordRefusal(r) {
      metrics.authzRefusal(r.reason);
      const subjectHash = hashSubject(r.principal.subject);
      const detail: Record<string, unknown> = {
        reason: r.reason, method: r.method, route: r.route, subject_hash: subjectHash, principal_kind: r.principal.kind,
      };
      if (r.principal.tenant !== undefined) detail.tenant = r.principal.tenant;
      await d.audit({ action: "authz_refused", actor: subjectHash, target: `${r.method} ${r.route}`, detail });
    },
    renderMetrics: () => metrics.render({
      rssBytes: d.rssBytes(), inflight: slots.size(), rateLimitBuckets: rateLimiter.size(), rateLimitEvictions: rateLimiter.evictions(),
    }),
  };
}
