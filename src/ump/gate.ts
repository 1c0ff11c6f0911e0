/**
 * Who a UMP request acts as (SPEC §5 items 5–7). With an operator key
 * configured every UMP route but the capabilities document needs a
 * credential, on loopback too (that is what L3 promises): a capability token
 * (signature by the current operator key, `nbf`/`exp`, not revoked; 401
 * `unauthorized` otherwise) or the operator bearer. Without a key the normal
 * auth posture applies: the caller the auth layer authenticated, or the
 * local operator.
 */
import { MemoryError } from "../core/errors.ts";
import { isJtiRevoked, insertRevokedJti } from "../store/ump-records.ts";
import { operatorActor, type UmpActor } from "./actor.ts";
import { base64UrlDecode } from "./base64.ts";
import { verifyTokenAsync } from "./capability-token.ts";
import type { UmpDeps } from "./ump-deps.ts";

/** A principal set by the auth layer (`c.get("principal")`, see src/auth/principal.ts). */
export interface AuthPrincipal {
  subject: string;
  tenant?: string;
  roles?: string[];
  /** `anonymous-loopback`, `bearer`, `jwt`, `capability`, `signed-webhook`. */
  kind?: string;
}

/** What the binding knows about the request. */
export interface GateInput {
  /** The `Authorization: Bearer` value, if any. */
  bearer?: string;
  /** The principal the auth layer authenticated, if any. */
  principal?: AuthPrincipal;
  /** The caller holds `pii:read`. */
  piiRead?: boolean;
  /**
   * UMP routes (default): with an operator key, the anonymous loopback caller
   * is refused (L3). File-binding routes pass false: the normal posture applies.
   */
  strict?: boolean;
}

const unauthorized = (why: string) => new MemoryError("unauthorized", why, undefined, 401);

/** Resolves the caller; throws 401 `unauthorized` when a keyed store gets no valid credential on a UMP route. */
export async function authenticate(d: UmpDeps, g: GateInput): Promise<UmpActor> {
  const seed = await d.keys();
  const did = seed ? d.didOf(seed) : undefined;
  const piiRead = g.piiRead ?? false;
  const strict = g.strict ?? true;
  if (g.bearer?.startsWith("umpcap.")) {
    if (!did) throw unauthorized("Capability tokens need an operator key; none is configured");
    const v = await verifyTokenAsync(g.bearer, { now: d.clock(), trustedIssuers: [did] });
    if (!v.ok) throw unauthorized(v.reason === "expired" ? "The capability token has expired" : `The capability token is not valid (${v.reason})`);
    if (await isJtiRevoked(d.db.client, v.claims.jti)) throw unauthorized("The capability token was revoked");
    return { kind: "token", subject: v.claims.aud ?? v.claims.iss, claims: v.claims, piiRead: false };
  }
  const p = g.principal;
  if (p && p.kind !== "anonymous-loopback" && p.kind !== "capability") {
    // The operator bearer is the operator; any other authenticated caller is itself (admin acts as the operator).
    if (p.kind === "bearer") return operatorActor(did, piiRead);
    return { kind: "principal", subject: p.subject, roles: p.roles ?? [], piiRead };
  }
  // Callers without the auth layer in front (MCP, CLI) may present the operator bearer themselves.
  if (g.bearer !== undefined && d.operatorBearer !== undefined && constantTimeEqual(g.bearer, d.operatorBearer)) return operatorActor(did, piiRead);
  // SPEC §5 item 6: with a key, a UMP route needs a token or the operator bearer, on loopback too.
  if (did && strict) throw unauthorized(g.bearer ? "The bearer credential is not valid" : "A capability token or the operator bearer is required");
  return operatorActor(did, piiRead);
}

/** The trust the request guard needs to accept capability tokens: the current operator key's did:key. */
export function capabilityTrust(did: string | undefined, revoked: ReadonlySet<string>): { trustedIssuers: string[]; revoked: (jti: string) => boolean } | undefined {
  return did ? { trustedIssuers: [did], revoked: (jti) => revoked.has(jti) } : undefined;
}

/** The `jti` claim of a pasted token (unverified: revoking any id is harmless). */
function jtiOfToken(token: string): string | undefined {
  const parts = token.split(".");
  const bytes = parts.length === 3 ? base64UrlDecode(parts[1]) : null;
  if (!bytes) return undefined;
  try {
    const claims = JSON.parse(new TextDecoder().decode(bytes)) as { jti?: unknown };
    return typeof claims.jti === "string" ? claims.jti : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `cairn ump revoke <jti>` (SPEC §5 item 7): revokes a capability token by
 * its id (or the whole token pasted). The operator bearer and the operator
 * key are not revocable identities; the refusal names rotation.
 */
export async function revokeToken(d: UmpDeps, arg: string): Promise<{ jti: string; revoked: boolean }> {
  const seed = await d.keys();
  const did = seed ? d.didOf(seed) : undefined;
  const value = arg.trim();
  const isBearer = d.operatorBearer !== undefined && constantTimeEqual(value, d.operatorBearer);
  if (isBearer || value === did || value === "operator" || value.startsWith("did:key:")) {
    throw new MemoryError("revoke_refused",
      "This is the operator identity, not a capability token, and cannot be revoked; rotate the key instead (delete the operator key and run cairn ump keygen, which invalidates every token at once), or change AUTH_TOKEN for the operator bearer",
      undefined, 400);
  }
  const jti = value.startsWith("umpcap.") ? jtiOfToken(value) : value;
  if (!jti || !/^[A-Za-z0-9._~-]{1,128}$/.test(jti)) throw new MemoryError("invalid_request", "Give a token id (jti) or a umpcap. token");
  const revoked = await d.db.write(async (tx) => {
    const fresh = await insertRevokedJti(tx, jti, d.clock().toISOString());
    if (fresh) await d.audit.append(tx, { action: "ump_revoke", target: `jti:${jti}`, detail: {} });
    return fresh;
  });
  return { jti, revoked };
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i % (x.length || 1)] ?? 0) ^ (y[i % (y.length || 1)] ?? 0);
  return diff === 0;
}
