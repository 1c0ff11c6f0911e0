// The verdict oracle and the gate labels as a table (SPEC §5 item 3): which role gets which verdict on which kind of
// route, and the label a refused caller reads in `details.gate`. Issue 27: each row is a decision an operator relies on.
import { describe, expect, it } from "vitest";
import type { Principal } from "../../src/auth/principal.ts";
import { describeGate, type Gate } from "../../src/authz/gate.ts";
import { assertDomainAdmin, decide, type DecideContext } from "../../src/authz/oracle.ts";
import { canReadPii, hasPermission, isAdminOn, permissionsOf } from "../../src/authz/roles.ts";
import { hashSubject } from "../../src/authz/subject-hash.ts";
import { isMemoryError } from "../../src/core/errors.ts";
import { createHash } from "node:crypto";

const jwt = (...roles: string[]): Principal => ({ subject: "alice", roles, kind: "jwt" });
const cap: Principal = { subject: "peer", roles: [], kind: "capability" };
const pass: DecideContext = { params: {}, rolelessPosture: "pass" };
const denyPosture: DecideContext = { params: {}, rolelessPosture: "deny" };
const onDomain = (name: string | undefined): DecideContext => ({ params: { name }, rolelessPosture: "pass" });

const G: Record<string, Gate> = {
  read: { level: "read" },
  write: { level: "write" },
  umpRead: { level: "read", capability: "read" },
  umpWrite: { level: "write", capability: "write" },
  adminGlobal: { level: "admin", on: "global" },
  adminDomain: { level: "admin", on: "domain", param: "name" },
  bodyDomain: { level: "admin", on: "body-domain" },
  workflow: { level: "workflow" },
  workflowOrSigned: { level: "workflow", signed: true },
  signedWebhook: { level: "signed-webhook" },
  authenticated: { level: "authenticated" },
};

const verdictOf = (p: Principal, g: Gate, ctx: DecideContext = pass) => decide(p, g, ctx).verdict;
const ALLOW = { verdict: "Allow", reason: "role_grants" };
const MISSING = { verdict: "Deny", reason: "role_missing" };

describe("each preset on each kind of route", () => {
  // The full matrix: a changed preset, a dropped level or a swapped branch moves at least one cell.
  const presets = ["reader", "writer", "agent", "workflow-operator", "pii-reader", "admin"] as const;
  const expected: Record<(typeof presets)[number], Record<string, "Allow" | "Deny" | "Defer">> = {
    reader: { read: "Allow", write: "Deny", adminGlobal: "Deny", adminDomain: "Deny", bodyDomain: "Deny", workflow: "Deny", signedWebhook: "Deny" },
    writer: { read: "Allow", write: "Allow", adminGlobal: "Deny", adminDomain: "Deny", bodyDomain: "Deny", workflow: "Deny", signedWebhook: "Deny" },
    agent: { read: "Allow", write: "Allow", adminGlobal: "Deny", adminDomain: "Deny", bodyDomain: "Deny", workflow: "Deny", signedWebhook: "Deny" },
    "workflow-operator": { read: "Allow", write: "Deny", adminGlobal: "Deny", adminDomain: "Deny", bodyDomain: "Deny", workflow: "Allow", signedWebhook: "Deny" },
    "pii-reader": { read: "Deny", write: "Deny", adminGlobal: "Deny", adminDomain: "Deny", bodyDomain: "Deny", workflow: "Deny", signedWebhook: "Deny" },
    admin: { read: "Allow", write: "Allow", adminGlobal: "Allow", adminDomain: "Allow", bodyDomain: "Allow", workflow: "Allow", signedWebhook: "Deny" },
  };
  it.each(presets)("%s", (role) => {
    const got = Object.fromEntries(Object.keys(expected[role]).map((g) => [g, verdictOf(jwt(role), G[g]!, onDomain("work"))]));
    expect(got).toEqual(expected[role]);
  });

  it("grants exactly the documented permissions per preset", () => {
    const perms = (r: string) => [...permissionsOf([r])].sort();
    expect(perms("reader")).toEqual(["read"]);
    expect(perms("writer")).toEqual(["read", "write"]);
    expect(perms("agent")).toEqual(["read", "write"]);
    expect(perms("workflow-operator")).toEqual(["read", "workflow"]);
    expect(perms("pii-reader")).toEqual(["pii:read"]);
    expect(perms("admin")).toEqual(["admin:*", "read", "workflow", "write"]);
    // Roles add up.
    expect([...permissionsOf(["reader", "pii-reader", "admin:work"])].sort()).toEqual(["admin:work", "pii:read", "read"]);
  });
});

describe("direct permissions as roles", () => {
  it("accepts the direct permission names and a well-formed admin:<domain>", () => {
    for (const r of ["read", "write", "workflow", "pii:read", "admin:*", "admin:global", "admin:work", "admin:a", "admin:0-x_y"]) {
      expect([...permissionsOf([r])]).toEqual([r]);
    }
    expect(permissionsOf([`admin:w${"x".repeat(63)}`]).size).toBe(1);
  });

  it("ignores unknown and malformed roles, which grant nothing", () => {
    const bad = ["", "Read", "reads", "xread", "read ", "superadmin:*", "admin", "admin:", "admin:Work", "admin:-work", "admin:_w",
      "admin:work!", "admin:wo rk", `admin:w${"x".repeat(64)}`, "admin:**", "pii:reader", "pii"];
    for (const r of bad) expect({ r, perms: [...permissionsOf([r]).values()] }).toEqual({ r, perms: r === "admin" ? ["read", "write", "admin:*", "workflow"] : [] });
  });

  it("a malformed admin role is not some-domain admin: a body-domain route refuses it at the gate", () => {
    for (const r of ["admin:", "admin:Work", "admin:work!", "xadmin:work", "admin:-w", `admin:w${"x".repeat(64)}`]) {
      expect({ r, v: decide(jwt(r), G.bodyDomain!, pass) }).toEqual({ r, v: MISSING });
    }
  });
});

describe("the admin gates", () => {
  it("admin:global is admin on global only; admin:<d> only on d; admin:* everywhere", () => {
    expect(decide(jwt("admin:global"), G.adminGlobal!, pass)).toEqual(ALLOW);
    expect(decide(jwt("admin:work"), G.adminGlobal!, pass)).toEqual(MISSING);
    expect(decide(jwt("admin:*"), G.adminGlobal!, pass)).toEqual(ALLOW);
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain("work"))).toEqual(ALLOW);
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain("home"))).toEqual(MISSING);
    expect(decide(jwt("admin:*"), G.adminDomain!, onDomain("home"))).toEqual(ALLOW);
  });

  it("normalises the path domain (case and surrounding blanks) before comparing", () => {
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain(" Work "))).toEqual(ALLOW);
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain("WORK"))).toEqual(ALLOW);
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain("wor"))).toEqual(MISSING);
  });

  it("without the path parameter only admin on every domain qualifies", () => {
    expect(decide(jwt("admin:work"), G.adminDomain!, onDomain(undefined))).toEqual(MISSING);
    expect(decide(jwt("admin:global"), G.adminDomain!, pass)).toEqual(MISSING);
    expect(decide(jwt("admin"), G.adminDomain!, pass)).toEqual(ALLOW);
    // A domain literally named "undefined" gives no admin on a route whose parameter is missing.
    expect(decide(jwt("admin:undefined"), G.adminDomain!, pass)).toEqual(MISSING);
  });

  it("a body-named domain: admin:* passes, a domain admin is deferred to the operation, others are refused", () => {
    expect(decide(jwt("admin:*"), G.bodyDomain!, pass)).toEqual(ALLOW);
    expect(decide(jwt("admin"), G.bodyDomain!, pass)).toEqual(ALLOW);
    expect(decide(jwt("admin:home"), G.bodyDomain!, pass)).toEqual({ verdict: "Defer", reason: "domain_checked_by_operation" });
    expect(decide(jwt("reader", "admin:home"), G.bodyDomain!, pass)).toEqual({ verdict: "Defer", reason: "domain_checked_by_operation" });
    expect(decide(jwt("writer", "workflow-operator", "pii-reader"), G.bodyDomain!, pass)).toEqual(MISSING);
  });
});

describe("the operation's half of a body-domain gate (assertDomainAdmin)", () => {
  const refusal = (f: () => void): unknown => {
    try {
      f();
    } catch (e) {
      return isMemoryError(e) ? { code: e.code, message: e.message, details: e.details } : e;
    }
    return "passed";
  };
  const FORBIDDEN = { code: "forbidden", message: "Not permitted on this domain", details: { reason: "role_missing" } };

  it("passes the domain's admin (case and blanks normalised) and admin on every domain", () => {
    expect(refusal(() => assertDomainAdmin(jwt("admin:work"), " WORK ", "deny"))).toBe("passed");
    expect(refusal(() => assertDomainAdmin(jwt("admin"), "home", "deny"))).toBe("passed");
  });

  it("refuses another domain's admin, a reader and a capability token with 403 forbidden", () => {
    expect(refusal(() => assertDomainAdmin(jwt("admin:work"), "home", "pass"))).toEqual(FORBIDDEN);
    expect(refusal(() => assertDomainAdmin(jwt("reader"), "home", "pass"))).toEqual(FORBIDDEN);
    // A capability token carries no roles; under pass it is still not a roleless bearer.
    expect(refusal(() => assertDomainAdmin(cap, "home", "pass"))).toEqual(FORBIDDEN);
    expect(refusal(() => assertDomainAdmin({ ...cap, roles: ["admin"] }, "home", "pass"))).toEqual(FORBIDDEN);
  });

  it("passes a roleless bearer under pass only, and refuses a missing principal as unauthorized", () => {
    expect(refusal(() => assertDomainAdmin(jwt(), "home", "pass"))).toBe("passed");
    expect(refusal(() => assertDomainAdmin(jwt(), "home", "deny"))).toEqual(FORBIDDEN);
    expect(refusal(() => assertDomainAdmin(undefined, "home", "pass"))).toMatchObject({ code: "unauthorized", message: "Authentication required" });
  });
});

describe("workflow, signed-webhook and any-principal routes", () => {
  it("refuses the agent by name on every workflow surface, whatever else it holds", () => {
    for (const g of [G.workflow!, G.workflowOrSigned!, G.signedWebhook!]) {
      expect(decide(jwt("agent", "admin"), g, pass)).toEqual({ verdict: "Deny", reason: "agent_refused_workflow" });
    }
    // Elsewhere the agent is an ordinary writer.
    expect(decide(jwt("agent"), G.write!, pass)).toEqual(ALLOW);
    expect(decide(jwt("agent"), G.read!, pass)).toEqual(ALLOW);
  });

  it("never lets a bearer through a signed-webhook route, admin included", () => {
    expect(decide(jwt("admin"), G.signedWebhook!, pass)).toEqual(MISSING);
    expect(decide(jwt("workflow-operator"), G.signedWebhook!, pass)).toEqual(MISSING);
  });

  it("admits every bearer on an any-principal route: agent, roleless under deny, unknown roles", () => {
    const any = { verdict: "Allow", reason: "any_principal" };
    expect(decide(jwt("agent"), G.authenticated!, denyPosture)).toEqual(any);
    expect(decide(jwt(), G.authenticated!, denyPosture)).toEqual(any);
    expect(decide(jwt("nobody"), G.authenticated!, pass)).toEqual(any);
  });

  it("a roleless bearer is deferred under pass and refused under deny on every other kind of route", () => {
    for (const g of ["read", "write", "adminGlobal", "adminDomain", "bodyDomain", "workflow", "signedWebhook"]) {
      expect({ g, v: decide(jwt(), G[g]!, pass) }).toEqual({ g, v: { verdict: "Defer", reason: "roleless_pass" } });
      expect({ g, v: decide(jwt(), G[g]!, denyPosture) }).toEqual({ g, v: { verdict: "Deny", reason: "roleless_denied" } });
    }
  });
});

describe("capability tokens", () => {
  it("are deferred to the operation on routes that accept them (read or write with a verb), refused everywhere else", () => {
    const deferred = { verdict: "Defer", reason: "capability_per_operation" };
    const refused = { verdict: "Deny", reason: "capability_not_accepted" };
    expect(decide(cap, G.umpRead!, denyPosture)).toEqual(deferred);
    expect(decide(cap, G.umpWrite!, pass)).toEqual(deferred);
    for (const g of ["read", "write", "adminGlobal", "adminDomain", "bodyDomain", "workflow", "workflowOrSigned", "signedWebhook", "authenticated"]) {
      expect({ g, v: decide(cap, G[g]!, pass) }).toEqual({ g, v: refused });
    }
    // A capability claiming roles gains nothing from them.
    expect(decide({ ...cap, roles: ["admin"] }, G.adminGlobal!, pass)).toEqual(refused);
    // The admin-shaped gate with a stray capability field is still not a capability route.
    expect(decide(cap, { level: "admin", on: "global", capability: "read" } as unknown as Gate, pass)).toEqual(refused);
  });

  it("a missing gate refuses every principal kind with route_ungated", () => {
    for (const p of [cap, jwt("admin"), jwt()]) expect(decide(p, undefined, pass)).toEqual({ verdict: "Deny", reason: "route_ungated" });
  });
});

describe("permission helpers", () => {
  it("hasPermission and canReadPii read the roles of the principal", () => {
    expect(hasPermission(jwt("writer"), "write")).toBe(true);
    expect(hasPermission(jwt("reader"), "write")).toBe(false);
    expect(hasPermission(undefined, "read")).toBe(false);
    expect(canReadPii(jwt("pii:read"))).toBe(true);
    expect(canReadPii(jwt("admin", "writer"))).toBe(false);
  });

  it("isAdminOn: admin:* or admin:<that domain>", () => {
    expect(isAdminOn(new Set(["admin:*"]), "x")).toBe(true);
    expect(isAdminOn(new Set(["admin:x"]), "x")).toBe(true);
    expect(isAdminOn(new Set(["admin:y"]), "x")).toBe(false);
    expect(isAdminOn(new Set(["read", "write", "workflow"]), "x")).toBe(false);
  });
});

describe("gate labels in a refusal's details.gate", () => {
  it("names each kind of gate as the operator reads it", () => {
    const labels = Object.fromEntries(Object.entries(G).map(([k, g]) => [k, describeGate(g)]));
    expect(labels).toEqual({
      read: "read",
      write: "write",
      umpRead: "read (capability verb read)",
      umpWrite: "write (capability verb write)",
      adminGlobal: "admin on global",
      adminDomain: "admin on domain :name",
      bodyDomain: "admin on the body's domain",
      workflow: "workflow",
      workflowOrSigned: "workflow or signed webhook",
      signedWebhook: "signed webhook",
      authenticated: "authenticated",
    });
    expect(describeGate({ level: "admin", on: "domain", param: "domain" })).toBe("admin on domain :domain");
    // A row spelled with an explicitly absent verb is a plain gate.
    expect(describeGate({ level: "read", capability: undefined })).toBe("read");
    expect(describeGate({ level: "workflow", signed: undefined } as unknown as Gate)).toBe("workflow");
  });
});

describe("the subject hash of refusal audit rows (SPEC §5 item 3)", () => {
  it("is SHA-256 over the domain-separated subject, lowercase hex, computed here independently", () => {
    const ref = (x: string) => createHash("sha256").update(`cairn-subject\0${x}`, "utf8").digest("hex");
    for (const subject of ["alice@example.org", "local-operator", "", "ünïcode"]) expect(hashSubject(subject)).toBe(ref(subject));
    expect(hashSubject("alice")).not.toBe(createHash("sha256").update("alice").digest("hex"));
  });
});
