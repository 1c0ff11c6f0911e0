/**
 * The browser-facing checks of the guard (issue 23 §1; SPEC §1 runtime rules,
 * §5 item 1). Without a configured credential the server trusts any loopback
 * caller, and a web page the operator visits is a loopback caller too:
 * - DNS rebinding: a page on `attacker.example` re-pointed at 127.0.0.1 sends
 *   `Host: attacker.example`; only loopback names and addresses are served.
 * - Cross-site requests: a browser names the page's origin in `Origin`; one
 *   that is present and not this server's own is refused (`null` included).
 * Both answer 403 `origin_refused` with `details.reason`. With a credential
 * configured neither applies: a browser cannot attach the bearer by itself.
 * The body-type rule (415, `src/http/media-types.ts`) applies in every posture.
 */
import { isLoopbackAddress } from "../outbound/deny-table.ts";
import { MemoryError } from "../core/errors.ts";
import { bodyTypesOf, mediaTypeOf } from "./media-types.ts";

/** Throws 403 `origin_refused` unless Host is loopback and Origin, when present, is this server's own. */
export function checkHostAndOrigin(host: string, origin: string | undefined): void {
  if (!isLoopbackHost(host)) {
    throw new MemoryError("origin_refused", "Host is not a loopback name or address", { reason: "host_not_loopback" });
  }
  if (origin === undefined) return;
  let o: URL | undefined;
  try {
    o = new URL(origin);
  } catch { /* `null` and junk are foreign */ }
  const same = o !== undefined && (o.protocol === "http:" || o.protocol === "https:") && o.host === normalHost(host);
  if (!same) throw new MemoryError("origin_refused", "Origin is not this server's own", { reason: "origin_mismatch" });
}

/** True for `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x`, with or without a port. */
export function isLoopbackHost(host: string): boolean {
  let name: string;
  try {
    name = new URL(`http://${host}`).hostname;
  } catch {
    return false;
  }
  if (name === "localhost") return true;
  return isLoopbackAddress(name.replace(/^\[|\]$/g, ""));
}

function normalHost(host: string): string {
  try {
    return new URL(`http://${host}`).host;
  } catch {
    return host;
  }
}

/** Whether a request carries a body, from its HTTP/1.1 framing headers (neither means none on the wire). */
export function hasBody(contentLength: string | undefined, transferEncoding: string | undefined): boolean {
  if (contentLength !== undefined) return contentLength.trim() !== "0";
  return transferEncoding !== undefined;
}

/** Throws 415 `unsupported_media_type` when a body's type is not one the route accepts. */
export function checkBodyType(routeKey: string, contentType: string | undefined, bodyPresent: boolean): void {
  if (contentType === undefined && !bodyPresent) return;
  const accepted = bodyTypesOf(routeKey);
  const got = contentType === undefined ? "" : mediaTypeOf(contentType);
  if (accepted.includes(got)) return;
  throw new MemoryError("unsupported_media_type", `Content-Type must be ${accepted.join(" or ")}`, { accepted: [...accepted], received: got || null });
}
