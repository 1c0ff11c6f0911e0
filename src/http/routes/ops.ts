/**
 * Operations routes of issue 8 (SPEC §4.8): `GET /metrics` (Prometheus text)
 * and `GET /ops/authz/explain`, which answers the caller's own verdict for a
 * route. A `roles` parameter is refused (nobody may ask "what if I had these
 * roles"); a route that is unknown or ungated is a probe-blind 404.
 */
import type { Hono } from "hono";
import { describeGate } from "../../authz/gate.ts";
import { decide } from "../../authz/oracle.ts";
import { hashSubject } from "../../authz/subject-hash.ts";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { isEndpointRoute } from "../endpoint.ts";
import { GATES, gateKey, isPublicKey } from "../gates.ts";
import { principalOf } from "../principal.ts";

/** Registers `/metrics` and `/ops/authz/explain`. */
export function opsRoutes(app: Hono, memory: Memory): void {
  app.get("/metrics", (c) => c.body(memory.security.renderMetrics(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }));

  app.get("/ops/authz/explain", (c) => {
    if (c.req.query("roles") !== undefined) {
      throw new MemoryError("authz_explain_role_set_refused", "Explain answers for the caller's own roles only; the roles parameter is refused");
    }
    const route = c.req.query("route");
    if (!route) throw new MemoryError("invalid_request", "route is required, e.g. route=/domains/{name}", { field: "route" });
    const method = (c.req.query("method") || "GET").toUpperCase();
    // Accept the OpenAPI form (`/domains/{name}`) as well as Hono's (`/domains/:name`).
    const pattern = route.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, ":$1");
    const key = gateKey(method, pattern);
    const registered = app.routes.some((r) => isEndpointRoute(r) && gateKey(r.method, r.path) === key);
    const notFound = () => new MemoryError("not_found", "not found");
    if (!registered) throw notFound();
    if (isPublicKey(key)) return c.json({ route: pattern, method, verdict: "Allow", reason: "public_route", gate: "public" });
    const gate = GATES[key];
    if (!gate) throw notFound();
    const principal = principalOf(c)!;
    const domain = c.req.query("domain");
    const params = gate.level === "admin" && gate.on === "domain" && domain ? { [gate.param]: domain } : {};
    const v = decide(principal, gate, { params, rolelessPosture: memory.security.rolelessPosture });
    const who: Record<string, unknown> = { kind: principal.kind, subject_hash: hashSubject(principal.subject), roles: principal.roles };
    if (principal.tenant !== undefined) who.tenant = principal.tenant;
    return c.json({ route: pattern, method, verdict: v.verdict, reason: v.reason, gate: describeGate(gate), principal: who });
  });
}
