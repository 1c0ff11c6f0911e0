/**
 * The `VendorHttp` port every vendor module uses (issue 15; SPEC §1 item 10, §5 item 12, §8): built on the one guarded
 * door, `createOutboundClient` — destinations only from the connector's config, the deny table, loopback only when
 * the operator opts in (`CAIRN_OUTBOUND_ALLOW_LOOPBACK=1`, tests), no redirects, a 15 s deadline per exchange.
 * On top of it: bounded retries on 429 (honouring `Retry-After`, seconds or an HTTP date, capped), on 5xx and on
 * timeouts; a 2xx whose body is not JSON is `malformed`; 401/403 are `auth` (403 with a rate-limit answer is retried
 * like 429, as GitHub documents); a redirect or a refused destination is `refused`. Every failure is a `VendorError`
 * whose message is safe to store (status and reason only: no body, no token, no query string).
 */
import { createOutboundClient, type OutboundClient } from "../outbound/outbound-client.ts";
import { VendorError, type VendorHttp } from "./vendor.ts";

/** Options of `createVendorHttp`. */
export interface VendorHttpOptions {
  /** Origins from the connector config (`base_url` / `api_base_url`); nothing else is ever contacted. */
  allowedOrigins: readonly string[];
  /** Opens 127/8 and ::1 (the documented test opt-in `CAIRN_OUTBOUND_ALLOW_LOOPBACK=1`); other private ranges stay refused. */
  allowLoopback?: boolean;
  /** DNS port (the runtime's `resolveHost`). */
  resolve: (host: string) => Promise<string[]>;
  /** Connects to the checked addresses only (the runtime's pinned fetch); host names are refused without it. */
  pinnedFetch?: (addresses: readonly string[]) => typeof fetch;
  /** Retries after the first attempt on 429, rate-limited 403, 5xx and timeouts; default 3. */
  retries?: number;
  /** Waits between attempts; injected so tests never wait real seconds. */
  sleep?: (ms: number) => Promise<void>;
  /** Deadline per exchange, body included; default 15000 ms (SPEC §8). */
  timeoutMs?: number;
  /** Longest wait a `Retry-After` / `x-ratelimit-reset` may ask for; longer asks fail as `rate_limited`. Default 300 s. */
  maxRetryAfterSec?: number;
  /** Backoff for 5xx and timeouts without a `Retry-After`: base ms, doubled per attempt; default 1000. */
  backoffMs?: number;
  /** Clock for HTTP-date `Retry-After` and `x-ratelimit-reset`; default the system clock. */
  now?: () => Date;
  /** Fetch implementation (tests may count calls); default the global `fetch`. */
  fetchImpl?: typeof fetch;
  /** A pre-built guarded client (overrides the options above that build one). */
  client?: OutboundClient;
}

/** Builds the vendor HTTP port over the guarded outbound client. */
export function createVendorHttp(opts: VendorHttpOptions): VendorHttp {
  const client = opts.client ?? createOutboundClient({
    allowedOrigins: opts.allowedOrigins,
    resolve: opts.resolve,
    allowLoopback: opts.allowLoopback === true,
    timeoutMs: opts.timeoutMs ?? 15_000,
    ...(opts.fetchImpl ? { fetchImpl: opts.fetchImpl } : {}),
    ...(opts.pinnedFetch ? { pinnedFetch: opts.pinnedFetch } : {}),
  });
  const retries = Math.max(0, opts.retries ?? 3);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const cap = opts.maxRetryAfterSec ?? 300;
  const backoff = opts.backoffMs ?? 1000;
  const now = opts.now ?? (() => new Date());

  async function exchange(method: "GET" | "POST", url: string, headers: Record<string, string>, body?: unknown) {
    const where = describe(url);
    let last: VendorError | undefined;
    for (let attempt = 0; attempt <= retries; attempt++) {
      if (attempt > 0 && last) await sleep(waitMs(last, attempt));
      const init: RequestInit = { method, headers: { ...headers } };
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)["content-type"] = "application/json";
      }
      const sent = await client.send(url, init);
      if (!sent.sent) {
        if (sent.reason === "timeout" || sent.reason === "network") {
          last = new VendorError("timeout", `${method} ${where}: no answer (${sent.reason})`);
          continue;
        }
        // Redirects, hosts not in config, private addresses: refused outright, never retried.
        throw new VendorError("refused", `${method} ${where}: refused (${sent.reason})`, sent.status);
      }
      const res = sent.response;
      const status = res.status;
      if (status >= 200 && status < 300) {
        let text: string;
        try {
          text = await res.text();
        } catch {
          last = new VendorError("timeout", `${method} ${where}: the answer was cut off`);
          continue;
        }
        try {
          return { body: text.trim() === "" ? null : JSON.parse(text) as unknown, headers: res.headers };
        } catch {
          throw new VendorError("malformed", `${method} ${where}: the answer is not valid JSON (HTTP ${status})`, status);
        }
      }
      await res.body?.cancel().catch(() => {});
      const retryAfter = retryAfterSec(res.headers, now());
      const rateLimited = status === 429 || (status === 403 && (retryAfter !== undefined || res.headers.get("x-ratelimit-remaining") === "0"));
      if (rateLimited) {
        if (retryAfter !== undefined && retryAfter > cap) {
          throw new VendorError("rate_limited", `${method} ${where}: rate limited for ${retryAfter} s (over the ${cap} s cap)`, status, retryAfter);
        }
        last = new VendorError("rate_limited", `${method} ${where}: rate limited (HTTP ${status})`, status, retryAfter);
        continue;
      }
      if (status === 401 || status === 403) throw new VendorError("auth", `${method} ${where}: not authorised (HTTP ${status})`, status);
      if (status >= 500) {
        last = new VendorError("server_error", `${method} ${where}: vendor error (HTTP ${status})`, status, retryAfter);
        continue;
      }
      throw new VendorError("http", `${method} ${where}: HTTP ${status}`, status);
    }
    throw new VendorError(last!.reason, `${last!.message}; gave up after ${retries + 1} attempts`, last!.status, last!.retryAfterSec);
  }

  function waitMs(e: VendorError, attempt: number): number {
    if (e.retryAfterSec !== undefined) return Math.min(e.retryAfterSec, cap) * 1000;
    return Math.min(backoff * 2 ** (attempt - 1), cap * 1000);
  }

  return {
    getJson: (url, headers) => exchange("GET", url, headers),
    postJson: (url, headers, body) => exchange("POST", url, headers, body),
  };
}

/**
 * Seconds to wait from `Retry-After` (delta seconds or an HTTP date, RFC 9110 §10.2.3) or, failing that, GitHub's
 * `x-ratelimit-reset` (epoch seconds) when `x-ratelimit-remaining` is 0; undefined when neither is usable.
 */
export function retryAfterSec(headers: Headers, now: Date): number | undefined {
  const ra = headers.get("retry-after")?.trim();
  if (ra) {
    if (/^\d+$/.test(ra)) return Number(ra);
    const at = Date.parse(ra);
    if (Number.isFinite(at)) return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
  }
  const reset = headers.get("x-ratelimit-reset")?.trim();
  if (reset && /^\d+$/.test(reset) && headers.get("x-ratelimit-remaining") === "0") {
    return Math.max(0, Number(reset) - Math.floor(now.getTime() / 1000));
  }
  return undefined;
}

/** Origin and path only: query strings may carry tokens or identities, so they never reach a stored message. */
function describe(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
