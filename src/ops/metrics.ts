/**
 * The metrics registry behind `GET /metrics` (SPEC §1 item 3, §4.8): request
 * counts and latency histograms by route, the `brain_rss_mib` gauge, write
 * lock-wait, pool-timeout and busy-error series, rate-limit and auth
 * refusals, in-flight requests, and token counters for the model-provider
 * lane (fed by the lane through `addProviderTokens`). Label values are route
 * patterns, never raw paths, so cardinality stays bounded.
 */
import { labelKey, renderPrometheus, type Family, type Labels } from "./prometheus-text.ts";

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const LOCK_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30];

/** Write-path observations, reported by the store's write queue. */
export interface WriteObserver {
  /** Time a write waited for the serialised write slot. */
  lockWait(ms: number): void;
  /** A write failed with SQLITE_BUSY. */
  busy(): void;
}

/** The registry. */
export interface Metrics extends WriteObserver {
  /** One finished HTTP request. */
  request(method: string, route: string, status: number, seconds: number): void;
  /** A request whose deadline expired (the pool-timeout signal: the only pool is the write slot). */
  poolTimeout(): void;
  /**
   * The work of a request answered with a deadline error (or whose client went away) ended: `stopped` at a slice
   * boundary or the write gate, or `completed` — a route that never checks its deadline ran to its end anyway.
   */
  abandoned(outcome: "stopped" | "completed"): void;
  rateLimited(): void;
  authFailure(reason: string): void;
  authzRefusal(reason: string): void;
  /** Model-provider lane token usage from a reply's `usage` block (SPEC §1 item 3): prompt and completion tokens. */
  addProviderTokens(provider: string, tokens: { prompt?: number; completion?: number }): void;
  /** One model-provider call and how it ended (`ok`, `timeout`, `http_error`, `malformed`, `refused`, …). */
  providerCall(provider: string, outcome: string): void;
  /** Renders the exposition text; gauges are sampled now. */
  render(gauges: { rssBytes: number; inflight: number; rateLimitBuckets: number; rateLimitEvictions: number }): string;
}

class Counter {
  readonly values = new Map<string, { labels: Labels; value: number }>();
  inc(labels: Labels = {}, by = 1): void {
    const k = labelKey(labels);
    const cur = this.values.get(k);
    if (cur) cur.value += by;
    else this.values.set(k, { labels, value: by });
  }
  samples() {
    return [...this.values.values()].map((v) => ({ labels: v.labels, value: v.value }));
  }
}

class Histogram {
  private readonly series = new Map<string, { labels: Labels; counts: number[]; sum: number; count: number }>();
  constructor(private readonly buckets: number[]) {}
  observe(labels: Labels, v: number): void {
    const k = labelKey(labels);
    let s = this.series.get(k);
    if (!s) this.series.set(k, (s = { labels, counts: this.buckets.map(() => 0), sum: 0, count: 0 }));
    for (let i = 0; i < this.buckets.length; i++) if (v <= this.buckets[i]!) s.counts[i]!++;
    s.sum += v;
    s.count++;
  }
  samples() {
    const out: Family["samples"] = [];
    for (const s of this.series.values()) {
      this.buckets.forEach((b, i) => out.push({ labels: { ...s.labels, le: String(b) }, value: s.counts[i]!, suffix: "_bucket" }));
      out.push({ labels: { ...s.labels, le: "+Inf" }, value: s.count, suffix: "_bucket" });
      out.push({ labels: s.labels, value: s.sum, suffix: "_sum" });
      out.push({ labels: s.labels, value: s.count, suffix: "_count" });
    }
    return out;
  }
}

/** Builds an empty registry. */
export function createMetrics(): Metrics {
  const requests = new Counter();
  const latency = new Histogram(LATENCY_BUCKETS);
  const lockWait = new Histogram(LOCK_BUCKETS);
  const busy = new Counter();
  const poolTimeouts = new Counter();
  const abandoned = new Counter();
  const rateLimited = new Counter();
  const authFailures = new Counter();
  const authzRefusals = new Counter();
  const tokens = new Counter();
  const providerCalls = new Counter();
  // The token series exist from the start so a scrape shows the lane is metered even before its first call.
  tokens.inc({ provider: "none", kind: "prompt" }, 0);
  tokens.inc({ provider: "none", kind: "completion" }, 0);
  busy.inc({}, 0);
  poolTimeouts.inc({}, 0);
  rateLimited.inc({}, 0);
  return {
    request(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      latency.observe({ method, route }, seconds);
    },
    lockWait: (ms) => lockWait.observe({}, ms / 1000),
    busy: () => busy.inc(),
    poolTimeout: () => poolTimeouts.inc(),
    abandoned: (outcome) => abandoned.inc({ outcome }),
    rateLimited: () => rateLimited.inc(),
    authFailure: (reason) => authFailures.inc({ reason }),
    authzRefusal: (reason) => authzRefusals.inc({ reason }),
    addProviderTokens(provider, t) {
      if (t.prompt) tokens.inc({ provider, kind: "prompt" }, t.prompt);
      if (t.completion) tokens.inc({ provider, kind: "completion" }, t.completion);
    },
    providerCall: (provider, outcome) => providerCalls.inc({ provider, outcome }),
    render(g) {
      const gauge = (name: string, help: string, value: number): Family => ({ name, help, type: "gauge", samples: [{ labels: {}, value }] });
      return renderPrometheus([
        gauge("brain_rss_mib", "Resident set size of the service in MiB", Math.round((g.rssBytes / 1048576) * 10) / 10),
        { name: "cairn_http_requests_total", help: "HTTP requests by method, route pattern and status", type: "counter", samples: requests.samples() },
        { name: "cairn_http_request_duration_seconds", help: "HTTP request latency by method and route pattern", type: "histogram", samples: latency.samples() },
        gauge("cairn_http_inflight_requests", "Requests in flight", g.inflight),
        { name: "cairn_db_lock_wait_seconds", help: "Time writes waited for the serialised write slot", type: "histogram", samples: lockWait.samples() },
        { name: "cairn_db_pool_timeouts_total", help: "Requests whose 30 s deadline expired (waiting on the write slot or work)", type: "counter", samples: poolTimeouts.samples() },
        { name: "cairn_abandoned_work_total", help: "Work of requests answered past their deadline (or whose client left) that has ended, by outcome", type: "counter", samples: abandoned.samples() },
        { name: "cairn_db_busy_errors_total", help: "Writes that failed with SQLITE_BUSY", type: "counter", samples: busy.samples() },
        { name: "cairn_rate_limited_total", help: "Requests refused with 429 by the per-IP budget", type: "counter", samples: rateLimited.samples() },
        gauge("cairn_rate_limit_buckets", "Client buckets tracked by the rate limiter", g.rateLimitBuckets),
        { name: "cairn_rate_limit_evictions_total", help: "Client buckets evicted at the RATE_LIMIT_MAX_KEYS cap", type: "counter", samples: [{ labels: {}, value: g.rateLimitEvictions }] },
        { name: "cairn_auth_failures_total", help: "401 answers by reason", type: "counter", samples: authFailures.samples() },
        { name: "cairn_authz_refusals_total", help: "Authorization refusals by closed reason", type: "counter", samples: authzRefusals.samples() },
        { name: "cairn_provider_tokens_total", help: "Model-provider lane tokens by provider and kind (prompt, completion), from each reply's usage block", type: "counter", samples: tokens.samples() },
        { name: "cairn_provider_calls_total", help: "Model-provider lane calls by provider and outcome", type: "counter", samples: providerCalls.samples() },
      ]);
    },
  };
}
