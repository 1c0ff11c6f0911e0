/**
 * Resolves the `route` parameter of `/ops/authz/explain` (SPEC §4.8) to a registered pattern, whatever spelling the
 * client holds: Hono's `/domains/:name`, the OpenAPI document's `/domains/{name}` (any parameter name, braces
 * encoded or not, leading slash optional, trailing slash ignored), or a concrete path such as `/domains/work`, whose
 * parameters are then taken from it. Nothing matched → undefined (the caller answers a probe-blind 404).
 */
import { isEndpointRoute } from "./endpoint.ts";
import { gateKey } from "./gates.ts";

/** A resolved route: the registered pattern and, for a concrete path, its parameters. */
export interface ExplainTarget {
  pattern: string;
  params: Record<string, string>;
}

const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)(?:\{(.*)\})?$/;

/** Finds the registered pattern `route` names for `method` among `routes`. */
export function resolveExplainRoute(routes: ReadonlyArray<{ method: string; path: string }>, method: string, route: string): ExplainTarget | undefined {
  let r = route.replace(/%7B/gi, "{").replace(/%7D/gi, "}").trim();
  if (!r.startsWith("/")) r = `/${r}`;
  if (r.length > 1) r = r.replace(/\/+$/, "");
  // Every parameter spelling becomes `:`, so `/domains/{domain}` and `/domains/:name` compare equal.
  const shape = (p: string) => p.split("/").map((s) => (s.startsWith(":") || /^\{.*\}$/.test(s) ? ":" : s)).join("/");
  const want = gateKey(method, shape(r));
  const verb = (m: string) => (m === "HEAD" ? "GET" : m);
  const candidates = routes.filter(isEndpointRoute).filter((rt) => verb(rt.method) === verb(method));
  const exact = candidates.find((rt) => gateKey(rt.method, shape(rt.path)) === want);
  if (exact) return { pattern: exact.path, params: {} };
  // A concrete path: matched segment by segment, as the router would (literal segments first).
  const xs = r.split("/");
  const scored = candidates.map((rt) => {
    const ps = rt.path.split("/");
    if (ps.length !== xs.length) return undefined;
    const params: Record<string, string> = {};
    let literal = 0;
    for (let i = 0; i < ps.length; i++) {
      const m = PARAM.exec(ps[i]!);
      if (!m) {
        if (ps[i] !== xs[i]) return undefined;
        literal++;
        continue;
      }
      const v = xs[i]!;
      if (!v || (m[2] !== undefined && !new RegExp(`^(?:${m[2]})$`).test(v))) return undefined;
      params[m[1]!] = v;
    }
    return { pattern: rt.path, params, literal };
  }).filter((x) => x !== undefined);
  scored.sort((a, b) => b.literal - a.literal);
  return scored[0] && { pattern: scored[0].pattern, params: scored[0].params };
}
