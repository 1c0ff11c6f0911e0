/**
 * Self-issued capability tokens (SPEC §2.9, §5 item 6; UMP notes "Capability
 * tokens"). Wire form `umpcap.<payload>.ed25519:<sig>` where `payload` is
 * base64url-no-pad of the UTF-8 JCS of the claims and `sig` is base64url-no-pad
 * of Ed25519-sign(BLAKE3-256(UTF-8(payload string))) by the issuer.
 * `verifyToken` does the middleware checks (shape, version, issuer, signature,
 * time window, revocation); `authorizeOp` does the per-operation verb and scope check.
 */

import { MemoryError } from "../core/errors.ts";
import { base32Encode } from "./base32.ts";
import { base64UrlDecode, base64UrlEncode } from "./base64.ts";
import { canonicalize } from "./canonical-json.ts";
import { blake3Digest } from "./content-hash.ts";
import { didFromSeed, publicKeyFromDid } from "./did-key.ts";
import { edSign, edVerify, edVerifyAsync } from "./_ed25519.ts";
import type { CapabilityClaims, TokenScope, Verb } from "./types.ts";

/** Claims version Cairn mints. */
export const CAPABILITY_VERSION = "ump-cap/1.0";
/** Versions accepted on verify: 1.0 plus the 0.1 draft, whose wire form is identical. */
const ACCEPTED_VERSIONS = [CAPABILITY_VERSION, "ump-cap/0.1"];
/** The four verbs; SPEC §2.9: no admin verb. */
export const VERBS: readonly Verb[] = ["read", "write", "derive", "export"];
/** Scope keys a token may restrict (UMP notes). */
export const TOKEN_SCOPE_KEYS = ["owner", "project", "agent", "visibility"] as const;

const PREFIX = "umpcap";
const SIG_PREFIX = "ed25519:";
const VISIBILITIES = ["private", "shared", "public"];
const encoder = new TextEncoder();

/** Grant of `mintToken`; exactly one of `ttlMs`, `ttl` (e.g. `"24h"`) or `exp` sets the expiry. */
export interface MintOptions {
  verbs: readonly Verb[];
  scope: TokenScope;
  now: Date;
  ttlMs?: number;
  ttl?: string;
  exp?: Date | string;
  nbf?: Date | string;
  aud?: string;
  /** Defaults to 128 random bits in lowercase base32. */
  jti?: string;
}

/** Why `verifyToken` refused a token. */
export type TokenFailure = "malformed" | "version" | "signature" | "issuer" | "expired" | "not_yet_valid" | "revoked";

/** Outcome of `verifyToken`. */
export type VerifyTokenResult = { ok: true; claims: CapabilityClaims } | { ok: false; reason: TokenFailure };

/** Inputs of `verifyToken`. */
export interface VerifyTokenOptions {
  now: Date;
  /** `did:key`s whose tokens are honoured (normally just the operator's). */
  trustedIssuers: readonly string[];
  revoked?: (jti: string) => boolean;
}

/** Signs a capability token with the issuer's Ed25519 seed; bad grants throw `MemoryError("invalid_request")`. */
export function mintToken(seed: Uint8Array, opts: MintOptions): string {
  const verbs = [...new Set(opts.verbs)];
  if (verbs.length === 0 || !verbs.every((v) => VERBS.includes(v))) {
    throw invalid(`Verbs must be a non-empty subset of ${VERBS.join(", ")}`);
  }
  const scopeProblem = checkScope(opts.scope);
  if (scopeProblem) throw invalid(scopeProblem);
  const exp = expiryOf(opts);
  const nbf = opts.nbf === undefined ? undefined : isoOf(opts.nbf, "nbf");
  if (Date.parse(exp) <= Date.parse(nbf ?? opts.now.toISOString())) throw invalid("Expiry must be after the start of validity");
  const claims: CapabilityClaims = {
    v: CAPABILITY_VERSION,
    iss: didFromSeed(seed),
    ...(opts.aud !== undefined ? { aud: opts.aud } : {}),
    verbs,
    scope: { ...opts.scope },
    ...(nbf !== undefined ? { nbf } : {}),
    exp,
    jti: opts.jti ?? base32Encode(crypto.getRandomValues(new Uint8Array(16))),
  };
  const payload = base64UrlEncode(encoder.encode(canonicalize(claims)));
  const sig = base64UrlEncode(edSign(blake3Digest(encoder.encode(payload)), seed));
  return `${PREFIX}.${payload}.${SIG_PREFIX}${sig}`;
}

/** Checks a presented token; the order is shape, version, issuer, signature, nbf, exp, revocation. Pure JS, synchronous. */
export function verifyToken(token: string, opts: VerifyTokenOptions): VerifyTokenResult {
  const step = checkBeforeSignature(token, opts);
  if ("ok" in step) return step;
  return edVerify(step.sig, step.digest, step.publicKey) ? checkAfterSignature(step.claims, opts) : refuse("signature");
}

/** `verifyToken` with the signature checked by native Web Crypto Ed25519 where available (same results, faster). */
export async function verifyTokenAsync(token: string, opts: VerifyTokenOptions): Promise<VerifyTokenResult> {
  const step = checkBeforeSignature(token, opts);
  if ("ok" in step) return step;
  return (await edVerifyAsync(step.sig, step.digest, step.publicKey)) ? checkAfterSignature(step.claims, opts) : refuse("signature");
}

type SignatureStep = { claims: CapabilityClaims; sig: Uint8Array; digest: Uint8Array; publicKey: Uint8Array };

function checkBeforeSignature(token: string, opts: VerifyTokenOptions): VerifyTokenResult | SignatureStep {
  const parts = typeof token === "string" ? token.split(".") : [];
  if (parts.length !== 3 || parts[0] !== PREFIX || !parts[2]!.startsWith(SIG_PREFIX)) return refuse("malformed");
  const payload = parts[1]!;
  const sig = base64UrlDecode(parts[2]!.slice(SIG_PREFIX.length));
  const raw = decodeJsonObject(payload);
  if (!sig || !raw || typeof raw.v !== "string") return refuse("malformed");
  if (!ACCEPTED_VERSIONS.includes(raw.v)) return refuse("version");
  const claims = checkClaims(raw);
  if (!claims) return refuse("malformed");
  if (!opts.trustedIssuers.includes(claims.iss)) return refuse("issuer");
  const publicKey = publicKeyFromDid(claims.iss);
  if (!publicKey) return refuse("signature");
  return { claims, sig, digest: blake3Digest(encoder.encode(payload)), publicKey };
}

function checkAfterSignature(claims: CapabilityClaims, opts: VerifyTokenOptions): VerifyTokenResult {
  const now = opts.now.getTime();
  if (claims.nbf !== undefined && now < Date.parse(claims.nbf)) return refuse("not_yet_valid");
  if (now > Date.parse(claims.exp)) return refuse("expired");
  if (opts.revoked?.(claims.jti)) return refuse("revoked");
  return { ok: true, claims };
}

/** Per-operation check: the verb is granted and every scope key in the token equals the record's. */
export function authorizeOp(claims: CapabilityClaims, verb: Verb, recordScope: Partial<Record<string, unknown>>): boolean {
  if (!VERBS.includes(verb) || !claims.verbs.includes(verb)) return false;
  for (const key of TOKEN_SCOPE_KEYS) {
    const wanted = claims.scope[key];
    if (wanted !== undefined && recordScope[key] !== wanted) return false;
  }
  return true;
}

/** Milliseconds of a TTL such as `30m`, `24h`, `7d` or `1d12h` (units s, m, h, d, w); `null` if malformed or zero. */
export function parseTtl(text: string): number | null {
  if (typeof text !== "string" || !/^(\d+[smhdw])+$/.test(text)) return null;
  const unit: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
  let total = 0;
  for (const [, n, u] of text.matchAll(/(\d+)([smhdw])/g)) total += Number(n) * unit[u!]!;
  return total > 0 && Number.isSafeInteger(total) ? total : null;
}

/** Parses CLI scope arguments such as `["project=x", "visibility=shared"]` (`--scope project=x`); throws on unknown keys. */
export function parseScopeArgs(args: readonly string[]): TokenScope {
  const scope: Record<string, string> = {};
  for (const arg of args) {
    const eq = arg.indexOf("=");
    const key = eq > 0 ? arg.slice(0, eq) : "";
    if (!(TOKEN_SCOPE_KEYS as readonly string[]).includes(key)) {
      throw invalid(`Scope must be key=value with key one of ${TOKEN_SCOPE_KEYS.join(", ")}, got "${arg}"`);
    }
    if (key in scope) throw invalid(`Scope key "${key}" given twice`);
    scope[key] = arg.slice(eq + 1);
  }
  const problem = checkScope(scope);
  if (problem) throw invalid(problem);
  return scope as TokenScope;
}

function invalid(message: string): MemoryError {
  return new MemoryError("invalid_request", message);
}

function refuse(reason: TokenFailure): VerifyTokenResult {
  return { ok: false, reason };
}

function checkScope(scope: unknown): string | null {
  if (typeof scope !== "object" || scope === null || Array.isArray(scope)) return "Scope must be an object";
  for (const [key, value] of Object.entries(scope)) {
    if (!(TOKEN_SCOPE_KEYS as readonly string[]).includes(key)) return `Unknown scope key "${key}"`;
    if (typeof value !== "string" || value === "") return `Scope "${key}" must be a non-empty string`;
    if (key === "visibility" && !VISIBILITIES.includes(value)) return `Scope visibility must be one of ${VISIBILITIES.join(", ")}`;
  }
  return null;
}

function isoOf(value: Date | string, name: string): string {
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  if (!Number.isFinite(ms)) throw invalid(`"${name}" is not a valid time`);
  return new Date(ms).toISOString();
}

function expiryOf(opts: MintOptions): string {
  const given = [opts.ttlMs, opts.ttl, opts.exp].filter((x) => x !== undefined).length;
  if (given !== 1) throw invalid("Give exactly one of ttlMs, ttl or exp");
  if (opts.exp !== undefined) return isoOf(opts.exp, "exp");
  const ttl = opts.ttl !== undefined ? parseTtl(opts.ttl) : opts.ttlMs!;
  if (ttl === null || !Number.isFinite(ttl) || ttl <= 0) throw invalid(`TTL must be positive, like 30m, 24h or 7d`);
  return new Date(opts.now.getTime() + ttl).toISOString();
}

function decodeJsonObject(payload: string): Record<string, unknown> | null {
  const bytes = base64UrlDecode(payload);
  if (!bytes) return null;
  try {
    const value: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

// Fail closed: an unknown verb or scope key could be a restriction we would silently drop.
function checkClaims(c: Record<string, unknown>): CapabilityClaims | null {
  const isTime = (x: unknown) => typeof x === "string" && Number.isFinite(Date.parse(x));
  if (typeof c.v !== "string" || typeof c.iss !== "string" || typeof c.jti !== "string" || c.jti === "") return null;
  if (c.aud !== undefined && typeof c.aud !== "string") return null;
  if (!isTime(c.exp) || (c.nbf !== undefined && !isTime(c.nbf))) return null;
  if (!Array.isArray(c.verbs) || !c.verbs.every((v) => VERBS.includes(v as Verb))) return null;
  if (checkScope(c.scope)) return null;
  return c as unknown as CapabilityClaims;
}
