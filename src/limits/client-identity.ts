/**
 * Who a request counts against (SPEC §8 "Client identity"): the socket peer
 * address, or, only under `CAIRN_TRUST_PROXY=1`, the rightmost
 * `X-Forwarded-For` entry (the one the trusted proxy appended; entries to its
 * left are client-supplied and spoofable).
 */

/** The rate-limit key of a request. */
export function clientIdentity(peer: string | undefined, forwardedFor: string | null | undefined, trustProxy: boolean): string {
  if (trustProxy && forwardedFor) {
    const parts = forwardedFor.split(",").map((s) => s.trim()).filter((s) => s !== "");
    const last = parts[parts.length - 1];
    if (last !== undefined) return normalize(last);
  }
  return peer === undefined || peer === "" ? "unknown" : normalize(peer);
}

// One client, one bucket: `::ffff:1.2.3.4` (a dual-stack socket's view) counts as `1.2.3.4`.
function normalize(addr: string): string {
  const a = addr.toLowerCase();
  return a.startsWith("::ffff:") && a.includes(".") ? a.slice(7) : a;
}
