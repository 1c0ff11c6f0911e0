/**
 * Operations routes of issue 8 (SPEC §4.8): `GET /metrics` (Prometheus text)
 * and `GET /ops/authz/explain`, which answers the caller's own verdict for a
 * route. A `roles` parameter is refused (nobody may ask "what if I had these
 * roles"); a route that is unknown or ungated is a probe-blind 404. Declared
 * as schemas in code (issue 21).
 */
import type { Hono } from "hono";
import { describeGate } from "../../authz/gate.ts";
import { decide } from "../../authz/oracle.ts";
import { hashSubject } from "../../authz/subject-hash.ts";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { resolveExplainRoute } from "../explain-route.ts";
import { GATES, gateKey, isPublicKey } from "../gates.ts";
import { principalOf } from "../principal.ts";
import { AnyObject, json, q } from "../shapes.ts";

const metrics = createRoute({
  method: "get", path: "/metrics", operationId: "getMetrics", tags: ["ops"], security: BEARER,
  summary: "Prometheus text metrics; deprecated-set header per SPEC §9.4", "x-cairn-choice": "Series: brain_rss_mib; cairn_http_requests_total{method,route,status}; cairn_http_request_duration_seconds{method,route} (histogram); cairn_http_inflight_requests; cairn_db_lock_wait_seconds (histogram, wait for the serialised write slot); cairn_db_pool_timeouts_total (requests whose 30 s deadline expired); cairn_db_busy_errors_total; cairn_rate_limited_total; cairn_rate_limit_buckets; cairn_rate_limit_evictions_total; cairn_auth_failures_total{reason}; cairn_authz_refusals_total{reason}; cairn_provider_tokens_total{provider,kind=prompt|completion} and cairn_provider_calls_total{provider,outcome} (model-provider lane). Route labels are patterns, never raw paths.",
  responses: { 200: { description: "text/plain; version=0.0.4", content: { "text/plain": { schema: z.string() } } }, ...errorResponses(401, 403) },
});

const explain = createRoute({
  method: "get", path: "/ops/authz/explain", operationId: "explainAuthz", tags: ["ops"], security: BEARER,
  summary: "The caller's own verdict for a route (Admin on global)", "x-cairn-choice": "reply {route, method, verdict: Allow|Defer|Deny, reason, gate, principal{kind, subject_hash, roles, tenant?}}",
  request: {
    query: z.object({
      route: q("Required; a route pattern in either form (/domains/{name}, /domains/:name, any parameter name) or a concrete path (/domains/work, whose parameters are then used)"),
      method: q(undefined, { default: "GET" }),
      domain: q("domain for admin-on-domain gates", { "x-cairn-choice": true }),
      roles: q("Refused (400 authz_explain_role_set_refused): explain answers for the caller's own roles only"),
    }),
  },
  responses: {
    200: json(z.object({
      route: z.string(), method: z.string(), verdict: z.enum(["Allow", "Defer", "Deny"]), reason: z.string(), gate: z.unknown(),
      principal: AnyObject.optional(),
    }).openapi("AuthzVerdict"), "Verdict"),
    ...errorResponses(400, 401, 403, 404),
  },
});

/** Registers `/metrics` and `/ops/authz/explain`; `app` is the whole app, whose routes explain looks up. */
export function opsRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(metrics, (c) => c.body(memory.security.renderMetrics(), 200, { "Content-Type": "text/plain; version=0.0.4; charset=utf-8" }) as never)
    .openapi(explain, (c) => {
      if (c.req.query("roles") !== undefined) {
        throw new MemoryError("authz_explain_role_set_refused", "Explain answers for the caller's own roles only; the roles parameter is refused");
      }
      const route = c.req.query("route");
      if (!route) throw new MemoryError("invalid_request", "route is required, e.g. route=/domains/{name}", { field: "route" });
      const method = (c.req.query("method") || "GET").toUpperCase();
      // Hono's form, the OpenAPI form (any parameter name) or a concrete path (src/http/explain-route.ts).
      const target = resolveExplainRoute(app.routes, method, route);
      const notFound = () => new MemoryError("not_found", "not found");
      if (!target) throw notFound();
      const pattern = target.pattern;
      const key = gateKey(method, pattern);
      if (isPublicKey(key)) return c.json({ route: pattern, method, verdict: "Allow" as const, reason: "public_route", gate: "public" }, 200);
      const gate = GATES[key];
      if (!gate) throw notFound();
      const principal = principalOf(c)!;
      const domain = c.req.query("domain");
      const params = gate.level === "admin" && gate.on === "domain" && domain ? { ...target.params, [gate.param]: domain } : target.params;
      const v = decide(principal, gate, { params, rolelessPosture: memory.security.rolelessPosture });
      const who: Record<string, unknown> = { kind: principal.kind, subject_hash: hashSubject(principal.subject), roles: principal.roles };
      if (principal.tenant !== undefined) who.tenant = principal.tenant;
      return c.json({ route: pattern, method, verdict: v.verdict, reason: v.reason, gate: describeGate(gate), principal: who }, 200);
    });
  app.route("/", r);
  return r;
}
