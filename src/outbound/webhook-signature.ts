/**
 * Standard-Webhooks signing (SPEC §5 item 8, §8 "Webhook timestamp tolerance"):
 * `webhook-signature: v1,<base64 HMAC-SHA-256 of "{id}.{timestamp}.{body}">` with a
 * shared secret. `webhook-timestamp` is accepted as epoch seconds (all digits) or
 * RFC 3339, within ±300 s of now. Web Crypto only, so it runs on Node and Deno.
 */

import { MemoryError } from "../core/errors.ts";

/** A shared secret: `whsec_<base64>` (Standard-Webhooks form), any other string (its UTF-8 bytes), or raw bytes. */
export type WebhookSecret = string | Uint8Array;

/** Why `verifyWebhook` refused a delivery. */
export type WebhookFailure = "missing_header" | "timestamp_invalid" | "timestamp_too_old" | "timestamp_too_new" | "signature_mismatch";

/** Outcome of `verifyWebhook`. */
export type WebhookVerifyResult = { ok: true; id: string; timestamp: Date } | { ok: false; reason: WebhookFailure };

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const encoder = new TextEncoder();

/** The HMAC key bytes of a secret; throws `MemoryError("invalid_webhook_secret")` when empty or not base64 after `whsec_`. */
export function webhookSecretBytes(secret: WebhookSecret): Uint8Array {
  if (secret instanceof Uint8Array) {
    if (secret.length === 0) throw badSecret();
    return secret;
  }
  if (typeof secret !== "string" || secret === "") throw badSecret();
  if (!secret.startsWith("whsec_")) return encoder.encode(secret);
  const b64 = secret.slice("whsec_".length);
  if (b64 === "" || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw badSecret();
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

/** Milliseconds since the epoch of a `webhook-timestamp` value (epoch seconds or RFC 3339); `null` if neither. */
export function parseWebhookTimestamp(value: string): number | null {
  if (/^\d{1,15}$/.test(value)) return Number(value) * 1000;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const ms = Date.parse(value.toUpperCase());
  if (!Number.isFinite(ms)) return null;
  // Date.parse rolls over impossible dates (Feb 30); RFC 3339 does not allow them.
  const check = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
  if (check.getUTCMonth() !== mo! - 1 || check.getUTCDate() !== d! || h! > 23 || mi! > 59 || s! > 59) return null;
  return ms;
}

/** RFC 3339 UTC timestamp without fractional seconds, e.g. `2026-07-01T12:00:00Z`. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** `v1,<base64 HMAC-SHA-256>` over `{id}.{timestamp}.{body}`; a timestamp that is neither an integer nor RFC 3339 throws. */
export async function signWebhook(secret: WebhookSecret, id: string, timestamp: number | string, body: string | Uint8Array): Promise<string> {
  const ts = typeof timestamp === "number" ? (Number.isSafeInteger(timestamp) && timestamp >= 0 ? String(timestamp) : "") : timestamp;
  if (parseWebhookTimestamp(ts) === null) {
    throw new MemoryError("invalid_webhook_timestamp", `Webhook timestamp must be epoch seconds or RFC 3339, got "${String(timestamp)}"`);
  }
  return "v1," + toBase64(await hmac(webhookSecretBytes(secret), id, ts, body));
}

/**
 * Verifies a delivery: the three headers must be present, the timestamp within
 * `toleranceSec` (default 300) of `now`, and one of the space-separated `v1,`
 * signatures must match (constant-time comparison). Other versions are ignored.
 */
export async function verifyWebhook(
  secret: WebhookSecret,
  headers: Headers | Record<string, string | undefined>,
  body: string | Uint8Array,
  opts: { now: Date; toleranceSec?: number },
): Promise<WebhookVerifyResult> {
  const get = (name: string) => headers instanceof Headers ? headers.get(name) ?? undefined : headerValue(headers, name);
  const id = get("webhook-id");
  const timestamp = get("webhook-timestamp");
  const signatures = get("webhook-signature");
  if (!id || !timestamp || !signatures) return { ok: false, reason: "missing_header" };
  const at = parseWebhookTimestamp(timestamp);
  if (at === null) return { ok: false, reason: "timestamp_invalid" };
  const toleranceMs = (opts.toleranceSec ?? 300) * 1000;
  if (opts.now.getTime() - at > toleranceMs) return { ok: false, reason: "timestamp_too_old" };
  if (at - opts.now.getTime() > toleranceMs) return { ok: false, reason: "timestamp_too_new" };
  const expected = toBase64(await hmac(webhookSecretBytes(secret), id, timestamp, body));
  let matched = false;
  for (const entry of signatures.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma < 0 || entry.slice(0, comma) !== "v1") continue;
    matched = constantTimeEqual(entry.slice(comma + 1), expected) || matched;
  }
  return matched ? { ok: true, id, timestamp: new Date(at) } : { ok: false, reason: "signature_mismatch" };
}

function badSecret(): MemoryError {
  return new MemoryError("invalid_webhook_secret", "Webhook secret must be non-empty (whsec_<base64> or a plain string)");
}

function headerValue(headers: Record<string, string | undefined>, name: string): string | undefined {
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === name) return value;
  return undefined;
}

async function hmac(key: Uint8Array, id: string, timestamp: string, body: string | Uint8Array): Promise<Uint8Array> {
  const prefix = encoder.encode(`${id}.${timestamp}.`);
  const payload = typeof body === "string" ? encoder.encode(body) : body;
  const message = new Uint8Array(prefix.length + payload.length);
  message.set(prefix, 0);
  message.set(payload, prefix.length);
  const cryptoKey = await crypto.subtle.importKey("raw", key as BufferSource, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, message as BufferSource));
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

function constantTimeEqual(a: string, b: string): boolean {
  // Lengths of base64 HMACs are public; only the content comparison must not short-circuit.
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
