/**
 * The verdict oracle (SPEC §5 item 3): Allow, Defer or Deny, with a closed
 * reason. It has no off switch.
 *
 * - Allow: the principal's roles grant the gate.
 * - Defer: the route cannot decide and the operation will. A roleless
 *   principal under posture `pass`, a capability token on a route that accepts
 *   one (verbs and scope are checked per operation), or a domain named in the
 *   body for a principal that administers some domain.
 * - Deny: anything else. The agent role is refused on workflow surfaces even
 *   when another role would grant them.
 */
import type { Principal } from "../auth/principal.ts";
import { MemoryError } from "../core/errors.ts";
import type { Gate } from "./gate.ts";
import { AGENT_ROLE, isAdminOn, permissionsOf } from "./roles.ts";

/** The three verdicts. */
export type VerdictKind = "Allow" | "Defer" | "Deny";

/** Closed reasons, recorded in refusal audit rows. */
export type VerdictReason =
  | "role_grants" | "public_route" | "any_principal"
  | "roleless_pass" | "capability_per_operation" | "domain_checked_by_operation"
  | "roleless_denied" | "role_missing" | "agent_refused_workflow" | "capability_not_accepted" | "route_ungated";

/** One decision. */
export interface Verdict {
  verdict: VerdictKind;
  reason: VerdictReason;
}

/** Context of a decision. */
export interface DecideContext {
  /** Route parameters (for domain gates). */
  params: Readonly<Record<string, string | undefined>>;
  rolelessPosture: "pass" | "deny";
}

/** Decides whether the principal may pass the gate (a missing gate is a Deny `route_ungated`). */
export function decide(p: Principal, gate: Gate | undefined, ctx: DecideContext): Verdict {
  if (!gate) return deny("route_ungated");
  if (p.kind === "capability") {
    const accepts = (gate.level === "read" || gate.level === "write") && gate.capability !== undefined;
    return accepts ? { verdict: "Defer", reason: "capability_per_operation" } : deny("capability_not_accepted");
  }
  // SPEC §3: the claim promote route answers every actor alike, so no role may be turned away before it.
  if (gate.level === "authenticated") return { verdict: "Allow", reason: "any_principal" };
  // The channel webhooks are workflow surfaces too (SPEC §4.11): an agent presenting a bearer there is refused by name.
  if ((gate.level === "workflow" || gate.level === "signed-webhook") && p.roles.includes(AGENT_ROLE)) return deny("agent_refused_workflow");
  if (p.roles.length === 0) {
    return ctx.rolelessPosture === "pass" ? { verdict: "Defer", reason: "roleless_pass" } : deny("roleless_denied");
  }
  const perms = permissionsOf(p.roles);
  switch (gate.level) {
    case "read":
    case "write":
    case "workflow":
      return perms.has(gate.level) ? allow() : deny("role_missing");
    case "admin": {
      if (gate.on === "global") return isAdminOn(perms, "global") ? allow() : deny("role_missing");
      if (gate.on === "domain") {
        const d = ctx.params[gate.param]?.trim().toLowerCase();
        // Without the parameter (explain on a bare pattern) only admin on every domain qualifies.
        const ok = d !== undefined ? isAdminOn(perms, d) : perms.has("admin:*");
        return ok ? allow() : deny("role_missing");
      }
      if (perms.has("admin:*")) return allow();
      return [...perms].some((x) => x.startsWith("admin:")) ? { verdict: "Defer", reason: "domain_checked_by_operation" } : deny("role_missing");
    }
    case "signed-webhook":
      // Signed webhooks never reach the oracle with a principal; a bearer alone is not enough.
      return deny("role_missing");
  }
}

/**
 * The per-operation half of a `body-domain` gate: throws 403 `forbidden`
 * unless the principal administers `domain` (roleless principals pass only
 * under posture `pass`, as at the route).
 */
export function assertDomainAdmin(p: Principal | undefined, domain: string, posture: "pass" | "deny"): void {
  if (!p) throw new MemoryError("unauthorized", "Authentication required");
  if (p.kind !== "capability" && p.roles.length === 0 && posture === "pass") return;
  if (p.kind !== "capability" && isAdminOn(permissionsOf(p.roles), domain.trim().toLowerCase())) return;
  throw new MemoryError("forbidden", "Not permitted on this domain", { reason: "role_missing" });
}

function allow(): Verdict {
  return { verdict: "Allow", reason: "role_grants" };
}

function deny(reason: VerdictReason): Verdict {
  return { verdict: "Deny", reason };
}
