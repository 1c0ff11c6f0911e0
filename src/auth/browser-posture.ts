/**
 * The browser posture shared by the service and the messaging gateway (SPEC §1
 * runtime rules, §5 items 1 and 10). Without a configured credential a server
 * trusts any loopback caller, and a web page the operator visits is a loopback
 * caller too:
 * - DNS rebinding: a page on `attacker.example` re-pointed at 127.0.0.1 sends
 *   `Host: attacker.example`; only loopback names and addresses are served.
 * - Cross-site requests: a browser names the page's origin in `Origin`; one
 *   that is present and not the server's own is refused (`null` included).
 * - Body types: a browser sends `text/plain`, form and multipart bodies
 *   cross-site without a preflight, so a JSON route must refuse them.
 * Pure: each binding turns a refusal into its own wire shape.
 */
import { isLoopbackAddress } from "../outbound/deny-table.ts";

/** Why a request fails the Host/Origin rule. */
export type PostureRefusal = "host_not_loopback" | "origin_mismatch";

/** The refusal for a request's `Host` and `Origin`, or undefined when both pass. */
export function hostOriginRefusal(host: string, origin: string | undefined): PostureRefusal | undefined {
  if (!isLoopbackHost(host)) return "host_not_loopback";
  if (origin === undefined) return undefined;
  let o: URL | undefined;
  try {
    o = new URL(origin);
  } catch { /* `null` and junk are foreign */ }
  const same = o !== undefined && (o.protocol === "http:" || o.protocol === "https:") && o.host === normalHost(host);
  return same ? undefined : "origin_mismatch";
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

/** The media type of a Content-Type header value: lower-cased, parameters dropped. */
export function mediaTypeOf(header: string): string {
  return header.split(";")[0]!.trim().toLowerCase();
}

/** Whether a request's body type is one of `accepted` (a request with neither a body nor a type passes). */
export function bodyTypeAccepted(accepted: readonly string[], contentType: string | undefined, bodyPresent: boolean): boolean {
  if (contentType === undefined && !bodyPresent) return true;
  return accepted.includes(contentType === undefined ? "" : mediaTypeOf(contentType));
}
