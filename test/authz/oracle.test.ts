import { describe, expect, it } from "vitest";
import type { Principal } from "../../src/auth/principal.ts";
import type { Gate } from "../../src/authz/gate.ts";
import { assertDomainAdmin, decide } from "../../src/authz/oracle.ts";
import { canReadPii, permissionsOf } from "../../src/authz/roles.ts";

const jwt = (roles: string[]): Principal => ({ subject: "s", roles, kind: "jwt" });
const pass = { params: {}, rolelessPosture: "pass" as const };
const denyPosture = { params: {}, rolelessPosture: "deny" as const };
const G = {
  read: { level: "read" } as Gate,
  write: { level: "write" } as Gate,
  adminGlobal: { level: "admin", on: "global" } as Gate,
  adminDomain: { level: "admin", on: "domain", param: "name" } as Gate,
  bodyDomain: { level: "admin", on: "body-domain" } as Gate,
  workflow: { level: "workflow" } as Gate,
  umpRead: { level: "read", capability: "read" } as Gate,
};

describe("verdict oracle (SPEC §5 item 3)", () => {
  it("allows what the role presets grant and denies the rest with role_missing", () => {
    expect(decide(jwt(["reader"]), G.read, pass)).toEqual({ verdict: "Allow", reason: "role_grants" });
    expect(decide(jwt(["reader"]), G.write, pass)).toEqual({ verdict: "Deny", reason: "role_missing" });
    expect(decide(jwt(["writer"]), G.write, pass).verdict).toBe("Allow");
    expect(decide(jwt(["writer"]), G.adminGlobal, pass).verdict).toBe("Deny");
    expect(decide(jwt(["admin"]), G.adminGlobal, pass).verdict).toBe("Allow");
    expect(decide(jwt(["unknown-role"]), G.read, pass)).toEqual({ verdict: "Deny", reason: "role_missing" });
  });

  it("grants workflow to workflow-operator and refuses the agent role on workflow surfaces even beside admin", () => {
    expect(decide(jwt(["workflow-operator"]), G.workflow, pass).verdict).toBe("Allow");
    expect(decide(jwt(["writer"]), G.workflow, pass).verdict).toBe("Deny");
    expect(decide(jwt(["agent"]), G.workflow, pass)).toEqual({ verdict: "Deny", reason: "agent_refused_workflow" });
    expect(decide(jwt(["agent", "admin"]), G.workflow, pass)).toEqual({ verdict: "Deny", reason: "agent_refused_workflow" });
    expect(decide(jwt(["agent"]), G.write, pass).verdict).toBe("Allow");
  });

  it("defers roleless principals under pass and denies them under deny", () => {
    expect(decide(jwt([]), G.adminGlobal, pass)).toEqual({ verdict: "Defer", reason: "roleless_pass" });
    expect(decide(jwt([]), G.read, denyPosture)).toEqual({ verdict: "Deny", reason: "roleless_denied" });
  });

  it("scopes admin to the domain in the path; admin:* covers every domain; admin:global is only global", () => {
    const on = (d: string) => ({ params: { name: d }, rolelessPosture: "pass" as const });
    expect(decide(jwt(["admin:work"]), G.adminDomain, on("work")).verdict).toBe("Allow");
    expect(decide(jwt(["admin:work"]), G.adminDomain, on("WORK")).verdict).toBe("Allow");
    expect(decide(jwt(["admin:work"]), G.adminDomain, on("home")).verdict).toBe("Deny");
    expect(decide(jwt(["admin:global"]), G.adminDomain, on("home")).verdict).toBe("Deny");
    expect(decide(jwt(["admin:global"]), G.adminGlobal, pass).verdict).toBe("Allow");
    expect(decide(jwt(["admin:work"]), G.adminGlobal, pass).verdict).toBe("Deny");
    expect(decide(jwt(["admin"]), G.adminDomain, on("home")).verdict).toBe("Allow");
  });

  it("defers a body-named domain to the operation for domain admins, which then checks it", () => {
    expect(decide(jwt(["admin:work"]), G.bodyDomain, pass)).toEqual({ verdict: "Defer", reason: "domain_checked_by_operation" });
    expect(decide(jwt(["reader"]), G.bodyDomain, pass).verdict).toBe("Deny");
    expect(() => assertDomainAdmin(jwt(["admin:work"]), "work", "pass")).not.toThrow();
    expect(() => assertDomainAdmin(jwt(["admin:work"]), "home", "pass")).toThrow(/Not permitted/);
    expect(() => assertDomainAdmin(jwt([]), "home", "deny")).toThrow(/Not permitted/);
  });

  it("defers capability tokens on capability routes and denies them elsewhere", () => {
    const cap: Principal = { subject: "peer", roles: [], kind: "capability" };
    expect(decide(cap, G.umpRead, denyPosture)).toEqual({ verdict: "Defer", reason: "capability_per_operation" });
    expect(decide(cap, G.read, pass)).toEqual({ verdict: "Deny", reason: "capability_not_accepted" });
  });

  it("denies a missing gate row as route_ungated for everyone, admin included", () => {
    expect(decide(jwt(["admin"]), undefined, pass)).toEqual({ verdict: "Deny", reason: "route_ungated" });
    expect(decide(jwt([]), undefined, pass)).toEqual({ verdict: "Deny", reason: "route_ungated" });
  });

  it("grants pii:read only explicitly, never through admin", () => {
    expect(canReadPii(jwt(["admin"]))).toBe(false);
    expect(canReadPii(jwt(["pii-reader"]))).toBe(true);
    expect(canReadPii(jwt(["reader", "pii:read"]))).toBe(true);
    expect(canReadPii(undefined)).toBe(false);
    expect([...permissionsOf(["admin"])].sort()).toEqual(["admin:*", "read", "workflow", "write"]);
  });
});
