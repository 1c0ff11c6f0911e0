/**
 * Who is calling (SPEC §5). Every authenticated request carries one
 * `Principal`; the HTTP binding puts it on the Hono context as
 * `c.get("principal")`. Roles are the RBAC input of the verdict oracle
 * (`src/authz/`); `capability` carries the claims of a UMP capability token so
 * the UMP routes can check verbs and scope per operation.
 */
import type { CapabilityClaims } from "../ump/types.ts";

/** How the principal was established (`signed-webhook`: an inbound channel envelope verified by its HMAC signature). */
export type PrincipalKind = "anonymous-loopback" | "bearer" | "jwt" | "capability" | "signed-webhook";

/** The caller of one request. */
export interface Principal {
  /** Stable identity: `local-operator`, `operator`, the JWT `sub`, or the capability token's owner. */
  subject: string;
  /** Tenant from the JWT `tenant` claim, when present. */
  tenant?: string;
  /** Role names (presets or direct permissions, see `src/authz/roles.ts`). */
  roles: string[];
  kind: PrincipalKind;
  /** Verified claims of a capability token (kind `capability` only). */
  capability?: CapabilityClaims;
}

/**
 * The principal of a loopback server with no configured credential: the
 * local operator, holding the `admin` preset (SPEC §5 item 1: loopback may
 * be exempt; SPEC §1: such a router is only ever built on loopback).
 */
export const LOCAL_OPERATOR: Principal = Object.freeze({ subject: "local-operator", roles: ["admin"], kind: "anonymous-loopback" }) as Principal;

/** The holder of the opaque bearer token is the operator (SPEC §5 item 7: "the operator bearer"). */
export const BEARER_OPERATOR: Principal = Object.freeze({ subject: "operator", roles: ["admin"], kind: "bearer" }) as Principal;
