/**
 * The authenticated principal on the Hono context. The guard middleware
 * (`guard.ts`) sets it as `c.get("principal")` on every non-public route;
 * routes read it for the read seam (`pii:read`), UMP scope checks
 * (`forbidden_scope`) and per-operation capability checks.
 */
import type { Context } from "hono";
import type { Principal } from "../auth/principal.ts";
import { canReadPii } from "../authz/roles.ts";

declare module "hono" {
  interface ContextVariableMap {
    /** Set by the guard on every authenticated request (absent on the three public routes). */
    principal: Principal;
    /** The verified `webhook-id` of a signed channel webhook (set by the guard; the route records it against replays). */
    webhookId: string;
  }
}

/** The request's principal, or undefined on a public route. */
export function principalOf(c: Context): Principal | undefined {
  return c.get("principal");
}

/** True when the caller holds `pii:read` (SPEC §1 read seam). */
export function piiReadOf(c: Context): boolean {
  return canReadPii(principalOf(c));
}
