/**
 * Authentication (SPEC §5 items 1, 2, 6): turns the `Authorization` header
 * and the socket peer into a `Principal`, or a closed failure reason that the
 * HTTP binding answers with 401 `unauthorized`.
 *
 * - No credential configured: the router exists only on loopback (boot
 *   guarantees it), and the caller is the local operator. A known non-loopback
 *   peer is still refused.
 * - Otherwise `Authorization: Bearer <token>` is required: the opaque token
 *   (constant-time comparison), then a JWT when keys are configured.
 * - On routes that accept them, a UMP capability token (`umpcap.…`) is
 *   verified against the operator identities the UMP layer trusts.
 */
import { isLoopbackAddress } from "../outbound/deny-table.ts";
import { verifyToken } from "../ump/capability-token.ts";
import type { Credentials } from "./load-credentials.ts";
import { timingSafeEqual } from "./constant-time.ts";
import { BEARER_OPERATOR, LOCAL_OPERATOR, type Principal } from "./principal.ts";
import { looksLikeJws, verifyJwt } from "./verify-jwt.ts";

/** Why a request is unauthenticated. */
export type AuthFailure = "missing" | "malformed" | "invalid" | "expired" | "not_loopback";

/** Outcome of `authenticate`. */
export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; reason: AuthFailure };

/** The request facts authentication needs. */
export interface AuthRequest {
  authorization?: string;
  /** Socket peer address as the runtime adapter reports it; absent for in-process requests. */
  peer?: string;
  /** True on routes whose gate row accepts capability tokens (the UMP routes). */
  acceptsCapability: boolean;
}

/** Operator identities whose capability tokens are honoured (supplied by the UMP layer). */
export interface CapabilityTrust {
  trustedIssuers: readonly string[];
  revoked?: (jti: string) => boolean;
}

/** Options of `createAuthenticator`. */
export interface AuthenticatorOptions {
  credentials: Credentials;
  now: () => Date;
  issuer?: string;
  audience?: string;
  /** Secret comparison; a port only so a test can observe it is used. Defaults to `timingSafeEqual`. */
  compare?: (presented: string, expected: string) => boolean;
}

/** The authenticator. */
export interface Authenticator {
  /** True when a credential is configured. */
  readonly required: boolean;
  authenticate(req: AuthRequest): Promise<AuthOutcome>;
  /** Installs the capability-token trust source (the UMP layer calls this once its operator key is loaded). */
  setCapabilityTrust(source: () => CapabilityTrust | undefined): void;
}

const CAPABILITY_PREFIX = "umpcap.";

/** Builds the authenticator. */
export function createAuthenticator(opts: AuthenticatorOptions): Authenticator {
  const { credentials } = opts;
  const compare = opts.compare ?? timingSafeEqual;
  const hasJwt = Object.keys(credentials.jwtKeys).length > 0;
  let trust: () => CapabilityTrust | undefined = () => undefined;

  const capability = (token: string): AuthOutcome => {
    const t = trust();
    if (!t) return { ok: false, reason: "invalid" };
    const r = verifyToken(token, { now: opts.now(), trustedIssuers: t.trustedIssuers, revoked: t.revoked });
    if (!r.ok) return { ok: false, reason: r.reason === "expired" ? "expired" : "invalid" };
    const c = r.claims;
    const subject = typeof c.scope.owner === "string" && c.scope.owner !== "" ? c.scope.owner : `capability:${c.jti}`;
    return { ok: true, principal: { subject, roles: [], kind: "capability", capability: c } };
  };

  return {
    required: credentials.required,
    setCapabilityTrust: (source) => void (trust = source),
    async authenticate(req) {
      const token = bearerOf(req.authorization);
      if (!credentials.required) {
        // SPEC §1: without a credential the router is loopback-only; a non-loopback peer never gets in.
        if (req.peer !== undefined && !isLoopbackAddress(req.peer)) return { ok: false, reason: "not_loopback" };
        // A narrower credential presented on loopback is honoured, so a peer's token keeps its limits.
        if (token !== null && token.startsWith(CAPABILITY_PREFIX) && req.acceptsCapability) return capability(token);
        return { ok: true, principal: LOCAL_OPERATOR };
      }
      if (req.authorization === undefined || req.authorization.trim() === "") return { ok: false, reason: "missing" };
      if (token === null) return { ok: false, reason: "malformed" };
      if (token.startsWith(CAPABILITY_PREFIX) && req.acceptsCapability) return capability(token);
      if (credentials.bearerToken !== undefined && compare(token, credentials.bearerToken)) return { ok: true, principal: BEARER_OPERATOR };
      if (hasJwt && looksLikeJws(token)) {
        const r = await verifyJwt(token, credentials.jwtKeys, { now: opts.now(), issuer: opts.issuer, audience: opts.audience });
        if (r.ok) return r;
        return { ok: false, reason: r.reason === "expired" ? "expired" : "invalid" };
      }
      return { ok: false, reason: "invalid" };
    },
  };
}

// RFC 6750 §2.1: `Bearer` is case-insensitive, then one token. Any visible ASCII is allowed in it
// (wider than b64token) because UMP capability tokens carry `ed25519:`.
function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const m = /^Bearer +([\x21-\x7e]+) *$/i.exec(header);
  return m ? m[1]! : null;
}
