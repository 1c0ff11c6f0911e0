import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { hashSubject } from "../../src/authz/subject-hash.ts";
import { createHash } from "node:crypto";
import { isEndpointRoute } from "../../src/http/endpoint.ts";
import { GATES, gateKey, PUBLIC_PAGES, PUBLIC_ROUTES } from "../../src/http/gates.ts";
import { principalOf } from "../../src/http/principal.ts";
import { mintToken } from "../../src/ump/capability-token.ts";
import { didFromSeed, generateSeed } from "../../src/ump/did-key.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { nowS, signJwt } from "../auth/_jwt.ts";

const HS = "an-hs256-secret-that-is-at-least-32-bytes-long";
let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function jwtMemory(env: Record<string, string> = {}): Promise<{ t: TestMemory; as: (roles: string[] | undefined, extra?: Record<string, unknown>) => Record<string, string> }> {
  const dir = tempDir();
  const p = join(dir, "hs");
  writeFileSync(p, HS);
  chmodSync(p, 0o600);
  const mem = await openTestMemory({ CAIRN_JWT_SECRET_FILE: p, ...env }, {}, dir);
  const as = (roles: string[] | undefined, extra: Record<string, unknown> = {}) => {
    const claims: Record<string, unknown> = { sub: "alice@example.org", tenant: "acme", exp: nowS() + 600, ...extra };
    if (roles !== undefined) claims.roles = roles;
    return { authorization: `Bearer ${signJwt("HS256", claims, HS)}` };
  };
  return { t: mem, as };
}

const sha256Hex = (s: string) => createHash("sha256").update(s, "utf8").digest("hex");

describe("the gate table (SPEC §5 item 3)", () => {
  it("has a row for every registered route except the three public ones", async () => {
    t = await openTestMemory();
    const routes = t.app.routes.filter(isEndpointRoute).map((r) => gateKey(r.method, r.path));
    const ungated = [...new Set(routes)].filter((k) => !PUBLIC_ROUTES.has(k) && !PUBLIC_PAGES.has(k) && !(k in GATES));
    expect(ungated).toEqual([]);
    // The web client's public shells are GETs under /app that hold no data (their data routes are gated).
    for (const k of PUBLIC_PAGES) {
      expect(k).toMatch(/^GET \/app(\/|$)/);
      expect(k.startsWith("GET /app/fragments")).toBe(false);
      expect(k in GATES).toBe(false);
    }
    expect([...PUBLIC_ROUTES].sort()).toEqual(["GET /.well-known/ump.json", "GET /health", "GET /ump/capabilities"]);
    for (const k of PUBLIC_ROUTES) expect(k in GATES).toBe(false);
  });

  it("refuses a matched route without a gate row with route_ungated, even for the local admin, and audits it", async () => {
    t = await openTestMemory();
    let ran = false;
    t.app.get("/experimental/:thing", (c) => {
      ran = true;
      return c.json({ ok: true });
    });
    const res = await t.req("GET", "/experimental/x1");
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("route_ungated");
    expect(ran).toBe(false);
    const rows = (await t.memory.audit.list({ action: "authz_refused" })).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.target).toBe("GET /experimental/:thing");
    expect(rows[0]!.detail).toEqual({
      reason: "route_ungated", method: "GET", route: "/experimental/:thing",
      subject_hash: sha256Hex("cairn-subject\0local-operator"), principal_kind: "anonymous-loopback",
    });
    expect((await t.memory.audit.verify()).ok).toBe(true);
  });
});

describe("refusals and the roleless posture over HTTP", () => {
  it("refuses a reader's write with 403 forbidden, writes nothing, and audits reason, method, pattern, hashed subject and tenant", async () => {
    const m = await jwtMemory();
    t = m.t;
    const res = await t.req("POST", "/ingest", { title: "t", content: "c" }, m.as(["reader"]));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "forbidden", message: "Not permitted", details: { reason: "role_missing", gate: "write" } } });
    const rows = (await t.memory.audit.list({ action: "authz_refused" })).rows;
    expect(rows).toHaveLength(1);
    // SPEC §5 item 3: the domain-separated SHA-256 of the subject, computed here independently of the product's hasher.
    expect(rows[0]!.actor).toBe(sha256Hex("cairn-subject\0alice@example.org"));
    expect(hashSubject("alice@example.org")).toBe(rows[0]!.actor);
    expect(rows[0]!.detail).toMatchObject({ reason: "role_missing", method: "POST", route: "/ingest", tenant: "acme", principal_kind: "jwt" });
    expect(JSON.stringify(rows[0])).not.toContain("alice@example.org");
    expect((await t.memory.stats()).docs).toBe(0);
    // Pattern, not the raw path: the audit target of a domain route names ':name'.
    const del = await t.req("DELETE", "/domains/secret-project?confirm=secret-project", undefined, m.as(["reader"]));
    // The refusal names the gate it failed, as the operator reads it (SPEC §5 item 3).
    expect((await del.json()).error.details).toEqual({ reason: "role_missing", gate: "admin on domain :name" });
    const gateOf = async (method: string, path: string, body?: unknown) => (await (await m.t.req(method, path, body, m.as(["reader"]))).json()).error.details.gate;
    expect(await gateOf("GET", "/audit")).toBe("admin on global");
    expect(await gateOf("POST", "/ump/remember", { content: "x" })).toBe("write (capability verb write)");
    const last = (await t.memory.audit.list({ action: "authz_refused" })).rows.find((r) => r.target?.startsWith("DELETE "))!;
    expect(last.target).toBe("DELETE /domains/:name");
    expect(JSON.stringify(last)).not.toContain("secret-project");
    expect((await t.memory.audit.verify()).ok).toBe(true);
  });

  it("lets an empty roles claim through under pass (the default) and refuses it under deny", async () => {
    const a = await jwtMemory();
    t = a.t;
    expect((await t.req("POST", "/ingest", { title: "t", content: "c" }, a.as([]))).status).toBe(200);
    expect((await t.req("POST", "/ingest", { title: "t", content: "d" }, a.as(undefined))).status).toBe(200);
    await t.close();
    const d = await jwtMemory({ CAIRN_RBAC_ROLELESS_POSTURE: "deny" });
    t = d.t;
    const res = await t.req("GET", "/stats", undefined, d.as([]));
    expect(res.status).toBe(403);
    expect((await res.json()).error.details.reason).toBe("roleless_denied");
    expect((await t.req("GET", "/stats", undefined, d.as(["reader"]))).status).toBe(200);
  });

  it("warns once on /health/db when a roleless token is admitted to an admin route under pass, never under deny", async () => {
    const a = await jwtMemory();
    t = a.t;
    const admin = a.as(["admin"]);
    const warningsOf = async () => (await (await t!.req("GET", "/health/db", undefined, admin)).json()).warnings as Array<{ code: string; message: string }> | undefined;
    expect((await (await t.req("GET", "/health/db", undefined, admin)).json()).roleless_posture).toBe("pass");
    // A roleless read is the documented posture; only an admin route reached without roles is the sharp edge.
    expect((await t.req("GET", "/stats", undefined, a.as([]))).status).toBe(200);
    expect(await warningsOf()).toBeUndefined();
    expect((await t.req("GET", "/audit", undefined, a.as([]))).status).toBe(200);
    expect((await t.req("GET", "/audit", undefined, a.as(undefined))).status).toBe(200);
    const w = await warningsOf();
    expect(w).toHaveLength(1);
    expect(w![0]!.code).toBe("roleless_admin_access");
    expect(w![0]!.message).toMatch(/CAIRN_RBAC_ROLELESS_POSTURE=deny/);
    expect(w![0]!.message).toContain("/audit");
    await t.close();
    const d = await jwtMemory({ CAIRN_RBAC_ROLELESS_POSTURE: "deny" });
    t = d.t;
    expect((await t.req("GET", "/audit", undefined, d.as([]))).status).toBe(403);
    const dh = await (await t.req("GET", "/health/db", undefined, d.as(["admin"]))).json();
    expect(dh.roleless_posture).toBe("deny");
    expect(dh.warnings).toBeUndefined();
  });

  it("scopes domain admin to its own domain", async () => {
    const m = await jwtMemory();
    t = m.t;
    const admin = m.as(["admin"]);
    await t.req("POST", "/domains", { name: "work" }, admin);
    await t.req("POST", "/domains", { name: "home" }, admin);
    const workAdmin = m.as(["admin:work"]);
    expect((await t.req("POST", "/domains/work/vacuum", undefined, workAdmin)).status).toBe(200);
    expect((await t.req("POST", "/domains/home/vacuum", undefined, workAdmin)).status).toBe(403);
    expect((await t.req("DELETE", "/domains/home?confirm=home", undefined, workAdmin)).status).toBe(403);
    expect((await t.req("DELETE", "/domains/work?confirm=work", undefined, workAdmin)).status).toBe(200);
  });

  it("scopes parcel export and import to the admin of the body's domain (SPEC §4.10)", async () => {
    const seed = generateSeed();
    const dir = tempDir();
    const p = join(dir, "hs");
    writeFileSync(p, HS);
    chmodSync(p, 0o600);
    t = await openTestMemory({ CAIRN_JWT_SECRET_FILE: p }, { umpKey: () => seed }, dir);
    const as = (roles: string[]) => ({ authorization: `Bearer ${signJwt("HS256", { sub: "alice@example.org", tenant: "acme", exp: nowS() + 600, roles }, HS)}` });
    for (const name of ["work", "home"]) await t.req("POST", "/domains", { name }, as(["admin"]));
    await t.req("POST", "/ingest", { domain: "work", title: "Pager", content: "The pager rotation changes every Monday." }, as(["admin"]));
    const workAdmin = as(["admin:work"]);
    const out = await t.req("POST", "/parcels/export", { domain: "work" }, workAdmin);
    expect(out.status).toBe(200);
    const { parcel } = await out.json();
    expect(parcel.signed_by).toBe(didFromSeed(seed));
    const refused = await t.req("POST", "/parcels/export", { domain: "home" }, workAdmin);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error.code).toBe("forbidden");
    for (const roles of [["reader"], ["writer"], ["agent"]]) {
      expect((await t.req("POST", "/parcels/export", { domain: "work" }, as(roles))).status).toBe(403);
    }
    const body = { expected_signer: parcel.signed_by, parcel };
    expect((await t.req("POST", "/parcels/import", { ...body, domain: "home" }, workAdmin)).status).toBe(403);
    const home = await t.req("POST", "/parcels/import", { ...body, domain: "home" }, as(["admin:home"]));
    expect(home.status).toBe(200);
    expect(await home.json()).toMatchObject({ received: 1, duplicate: 1 });
    // The ledger is readable by a reader.
    expect((await t.req("GET", "/parcels?domain=work", undefined, as(["reader"]))).status).toBe(200);
  });

  it("refuses the agent role on a workflow surface and admits a workflow operator", async () => {
    const m = await jwtMemory();
    t = m.t;
    // The real workflow route (issue 16); every workflow route is covered one by one in test/workflow/roles.test.ts.
    const body = { state_json: { case_ref: "crm:zendesk:acme:1", origin: "operator" } };
    const agent = await t.req("POST", "/workflow/runs", body, m.as(["agent"]));
    expect(agent.status).toBe(403);
    expect((await agent.json()).error.details.reason).toBe("agent_refused_workflow");
    const op = await t.req("POST", "/workflow/runs", body, m.as(["workflow-operator"]));
    expect(op.status).toBe(201);
    expect((await op.json()).run).toMatchObject({ id: 1, case_ref: "crm:zendesk:acme:1" });
    expect((await t.req("POST", "/workflow/runs", body, m.as(["writer"]))).status).toBe(403);
  });

  it("reads un-redacted content only with pii:read", async () => {
    const m = await jwtMemory({ CAIRN_EMBED_KIND: "none" });
    t = m.t;
    const content = "Escalations go to dana.lee@example.com for the billing runbook.";
    expect((await t.req("POST", "/ingest", { title: "Billing runbook", content }, m.as(["writer"]))).status).toBe(200);
    const reader = await (await t.req("POST", "/recall", { query: "billing runbook escalations" }, m.as(["reader"]))).json();
    expect(reader.hits.length).toBeGreaterThan(0);
    expect(JSON.stringify(reader.hits)).toContain("[redacted:email]");
    expect(JSON.stringify(reader.hits)).not.toContain("dana.lee@example.com");
    const pii = await (await t.req("POST", "/recall", { query: "billing runbook escalations" }, m.as(["reader", "pii-reader"]))).json();
    expect(JSON.stringify(pii.hits)).toContain("dana.lee@example.com");
    // admin alone does not imply pii:read
    const admin = await (await t.req("POST", "/recall", { query: "billing runbook escalations" }, m.as(["admin"]))).json();
    expect(JSON.stringify(admin.hits)).not.toContain("dana.lee@example.com");
  });
});

describe("capability tokens on UMP routes (SPEC §5 item 6)", () => {
  it("accepts a trusted capability token on a UMP route only, with its claims on the principal", async () => {
    // The UMP layer installs the trust: tokens signed by the current operator key (SPEC §5 items 5–6).
    let operatorKey: Uint8Array | undefined;
    t = await openTestMemory({ AUTH_TOKEN: "operator-token-123456" }, { umpKey: () => operatorKey });
    const seed = generateSeed();
    const token = mintToken(seed, { verbs: ["read"], scope: { owner: "peer-bob" }, now: new Date(), ttl: "1h" });
    const bearer = { authorization: `Bearer ${token}` };
    // No operator key yet: the token is not honoured.
    expect((await t.req("POST", "/ump/recall", { query: "anything" }, bearer)).status).toBe(401);
    operatorKey = seed;
    const trust = (t.memory.ump.capabilityTrust(seed))!;
    expect(trust.trustedIssuers).toEqual([didFromSeed(seed)]);
    const outcome = await t.memory.security.authenticator.authenticate({ authorization: `Bearer ${token}`, acceptsCapability: true });
    expect(outcome.ok && { kind: outcome.principal.kind, subject: outcome.principal.subject, verbs: outcome.principal.capability?.verbs })
      .toEqual({ kind: "capability", subject: "peer-bob", verbs: ["read"] });
    const ok = await t.req("POST", "/ump/recall", { query: "anything" }, bearer);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ results: [] });
    // Not a UMP route: a capability token is no credential there.
    expect((await t.req("GET", "/stats", undefined, bearer)).status).toBe(401);
    // Expired: 401.
    const old = mintToken(seed, { verbs: ["read"], scope: {}, now: new Date(Date.now() - 7200_000), ttl: "1h" });
    expect((await t.req("POST", "/ump/recall", {}, { authorization: `Bearer ${old}` })).status).toBe(401);
    // Signed by an untrusted key: 401.
    const stranger = mintToken(generateSeed(), { verbs: ["read"], scope: {}, now: new Date(), ttl: "1h" });
    expect((await t.req("POST", "/ump/recall", {}, { authorization: `Bearer ${stranger}` })).status).toBe(401);
  });
});
