/**
 * JWT/JWS verification (SPEC §5 item 2). Compact JWS only; the header's
 * `alg` must be one of the configured keys' algorithms (`none` and any
 * algorithm without a configured key are refused, so an HS256 token can never
 * be checked against a public key). Claims Cairn reads (this project's choice,
 * documented in openapi.yaml): `sub` (required string), `exp` (required,
 * NumericDate), `nbf` (optional), `iss`/`aud` (checked when configured),
 * `tenant` (optional string) and `roles` (optional array of strings; absent
 * means an empty roles claim). A 30 s leeway absorbs clock skew.
 */
import { base64UrlDecode } from "../ump/base64.ts";
import type { JwtAlg, JwtKeys } from "./jwt-keys.ts";
import type { Principal } from "./principal.ts";

/** Clock-skew allowance for `exp` and `nbf`, in seconds. */
export const JWT_LEEWAY_S = 30;

/** Why a token was refused. */
export type JwtFailure = "malformed" | "algorithm" | "signature" | "expired" | "not_yet_valid" | "issuer" | "audience" | "claims";

/** Outcome of `verifyJwt`. */
export type JwtResult = { ok: true; principal: Principal } | { ok: false; reason: JwtFailure };

/** Options of `verifyJwt`. */
export interface JwtVerifyOptions {
  now: Date;
  issuer?: string;
  audience?: string;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** True when `token` has the shape of a compact JWS (three base64url segments). */
export function looksLikeJws(token: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(token);
}

/** Verifies signature, time window and claims, and builds the principal. */
export async function verifyJwt(token: string, keys: JwtKeys, opts: JwtVerifyOptions): Promise<JwtResult> {
  if (!looksLikeJws(token)) return fail("malformed");
  const [h, p, s] = token.split(".") as [string, string, string];
  const header = decodeObject(h);
  const claims = decodeObject(p);
  const sig = base64UrlDecode(s);
  if (!header || !claims || !sig) return fail("malformed");
  // RFC 7515 §4.1.11: a critical extension we do not understand makes the token invalid.
  if (header.crit !== undefined) return fail("algorithm");
  const alg = header.alg;
  if (alg !== "HS256" && alg !== "EdDSA" && alg !== "ES256") return fail("algorithm");
  const key = keys[alg as JwtAlg];
  if (!key) return fail("algorithm");
  const data = encoder.encode(`${h}.${p}`);
  let valid = false;
  try {
    if (alg === "HS256") valid = await crypto.subtle.verify("HMAC", key, sig as BufferSource, data);
    else if (alg === "EdDSA") valid = await crypto.subtle.verify("Ed25519", key, sig as BufferSource, data);
    else valid = sig.length === 64 && await crypto.subtle.verify({ name: "ECDSA", hash: "SHA-256" }, key, sig as BufferSource, data);
  } catch {
    valid = false;
  }
  if (!valid) return fail("signature");

  const now = opts.now.getTime() / 1000;
  if (typeof claims.exp !== "number" || !Number.isFinite(claims.exp)) return fail("claims");
  if (now > claims.exp + JWT_LEEWAY_S) return fail("expired");
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== "number" || !Number.isFinite(claims.nbf)) return fail("claims");
    if (now + JWT_LEEWAY_S < claims.nbf) return fail("not_yet_valid");
  }
  if (opts.issuer !== undefined && claims.iss !== opts.issuer) return fail("issuer");
  if (opts.audience !== undefined) {
    const aud = claims.aud;
    const ok = typeof aud === "string" ? aud === opts.audience : Array.isArray(aud) && aud.includes(opts.audience);
    if (!ok) return fail("audience");
  }
  if (typeof claims.sub !== "string" || claims.sub === "") return fail("claims");
  if (claims.tenant !== undefined && typeof claims.tenant !== "string") return fail("claims");
  const roles = claims.roles ?? [];
  if (!Array.isArray(roles) || !roles.every((r) => typeof r === "string")) return fail("claims");
  const principal: Principal = { subject: claims.sub, roles: [...roles] as string[], kind: "jwt" };
  if (typeof claims.tenant === "string" && claims.tenant !== "") principal.tenant = claims.tenant;
  return { ok: true, principal };
}

function decodeObject(segment: string): Record<string, unknown> | null {
  const bytes = base64UrlDecode(segment);
  if (!bytes) return null;
  try {
    const v = JSON.parse(decoder.decode(bytes));
    return v && typeof v === "object" && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

function fail(reason: JwtFailure): JwtResult {
  return { ok: false, reason };
}
