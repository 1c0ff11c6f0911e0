/**
 * The one guarded door for outbound HTTP (SPEC §1 item 10, §5 items 8 and 12):
 * destinations come only from configured origins, every address the host
 * resolves to must pass the deny table, redirects are refused (the request is
 * sent with `redirect: "manual"` and any 3xx is an error), and each exchange has
 * a 15 s deadline by default (SPEC §8 "client timeout 15 s, no redirects").
 * DNS is a port (`resolve`) so the runtime adapter supplies it, and so is the
 * pinned connection (`pinnedFetch`): a host name is resolved once, and the
 * request goes to exactly the addresses that passed the deny table, so a DNS
 * answer that changes between the check and the connection (rebinding) cannot
 * reach a forbidden address. Outcomes are values, never exceptions.
 */

import { isForbiddenAddress, isLoopbackAddress, parseIpv4, parseIpv6 } from "./deny-table.ts";

/** Configuration of `createOutboundClient`. */
export interface OutboundConfig {
  /** Origins (`https://hooks.example.com`, `http://127.0.0.1:9000`) requests may go to; nothing else is reachable. */
  allowedOrigins: readonly string[];
  /** DNS port: every address of `host`, IPv4 and IPv6. */
  resolve: (host: string) => Promise<string[]>;
  /** Permit loopback destinations (127/8, ::1), e.g. a local alert sink; other private ranges stay forbidden. */
  allowLoopback?: boolean;
  /** Deadline for the whole exchange, body included; default 15000 ms. */
  timeoutMs?: number;
  /**
   * A fetch that connects only to the given (already checked) addresses, keeping the URL's name for Host and TLS
   * (the runtime's `createPinnedFetch`). Used for every host name; without it a name is refused (`resolve_failed`),
   * since a plain fetch would look the name up again.
   */
  pinnedFetch?: (addresses: readonly string[]) => typeof fetch;
  /** Fetch implementation for IP-literal hosts (nothing to re-resolve); defaults to the global `fetch`. */
  fetchImpl?: typeof fetch;
}

/** Why a request was not sent or not accepted. */
export type SendFailure = "bad_url" | "origin_not_allowed" | "resolve_failed" | "forbidden_address" | "redirect" | "timeout" | "aborted" | "network";

/** Outcome of `send`: a response of any non-3xx status, or the reason nothing usable came back. */
export type SendResult =
  | { sent: true; response: Response }
  | { sent: false; reason: SendFailure; message: string; status?: number };

/** A guarded HTTP client. */
export interface OutboundClient {
  /** Sends one request through the guard. */
  send(url: string | URL, init?: RequestInit): Promise<SendResult>;
}

/** Builds the guarded client from its configuration. */
export function createOutboundClient(config: OutboundConfig): OutboundClient {
  const allowed = new Set(config.allowedOrigins.map((o) => new URL(o).origin));
  const timeoutMs = config.timeoutMs ?? 15_000;
  const fetchImpl = config.fetchImpl ?? fetch;
  const permitted = (ip: string) => !isForbiddenAddress(ip) || (config.allowLoopback === true && isLoopbackAddress(ip));

  return {
    async send(target, init = {}) {
      let url: URL;
      try {
        url = new URL(target);
      } catch {
        return fail("bad_url", "Destination is not a valid URL");
      }
      if (url.protocol !== "https:" && url.protocol !== "http:") return fail("bad_url", "Only http and https destinations are supported");
      if (!allowed.has(url.origin)) return fail("origin_not_allowed", `Origin ${url.origin} is not a configured destination`);

      const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
      const literal = parseIpv4(host) !== null || parseIpv6(host) !== null;
      let addresses: string[];
      if (literal) addresses = [host];
      else {
        try {
          addresses = await config.resolve(host);
        } catch {
          return fail("resolve_failed", `Host ${host} did not resolve`);
        }
      }
      if (addresses.length === 0) return fail("resolve_failed", `Host ${host} did not resolve`);
      // SPEC §5 item 12: every address must be allowed, or a multi-record answer could smuggle a private one.
      const refused = addresses.find((ip) => !permitted(ip));
      if (refused !== undefined) return fail("forbidden_address", `Host ${host} resolves to a forbidden address`);
      if (!literal && !config.pinnedFetch) return fail("resolve_failed", `Host ${host} cannot be pinned to its checked address`);

      const deadline = AbortSignal.timeout(timeoutMs);
      const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      // SPEC §5 item 12: a name connects to the addresses just checked, never to a second lookup's answer.
      const connect = literal ? fetchImpl : config.pinnedFetch!(addresses);
      let response: Response;
      try {
        response = await connect(url, { ...init, redirect: "manual", signal });
      } catch (e) {
        if (deadline.aborted) return fail("timeout", `No response within ${timeoutMs} ms`);
        if (init.signal?.aborted) return fail("aborted", "Request aborted by the caller");
        return fail("network", `Request failed: ${(e as Error).name}`);
      }
      if (response.type === "opaqueredirect" || (response.status >= 300 && response.status < 400)) {
        await response.body?.cancel().catch(() => {});
        return { sent: false, reason: "redirect", status: response.status, message: "Redirects are refused" };
      }
      return { sent: true, response };
    },
  };
}

function fail(reason: SendFailure, message: string): SendResult {
  return { sent: false, reason, message };
}
