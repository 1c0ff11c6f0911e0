/**
 * Which registered route a request matched, seen from a `*` middleware, so
 * the gate, the metrics and the body limit key on the route pattern rather
 * than the raw path. Wildcard `ALL` entries are middleware, not endpoints.
 */
import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

/** A matched endpoint. */
export interface Endpoint {
  method: string;
  /** Hono pattern, e.g. `/domains/:name`. */
  pattern: string;
}

/** True when a registered route is an endpoint (not a `*` middleware). */
export function isEndpointRoute(r: { method: string; path: string }): boolean {
  return !(r.method === "ALL" && r.path.endsWith("*"));
}

/** The endpoint that will answer this request, or undefined (an unmatched path: probe-blind 404). */
export function endpointOf(c: Context): Endpoint | undefined {
  const r = matchedRoutes(c).find(isEndpointRoute);
  return r ? { method: r.method, pattern: r.path } : undefined;
}

/** The path parameters of `path` under `pattern` (`:name` segments), URI-decoded. */
export function paramsOf(pattern: string, path: string): Record<string, string> {
  const ps = pattern.split("/");
  const xs = path.split("/");
  const out: Record<string, string> = {};
  ps.forEach((seg, i) => {
    if (!seg.startsWith(":") || xs[i] === undefined) return;
    const name = seg.slice(1).replace(/\{.*\}$/, "");
    try {
      out[name] = decodeURIComponent(xs[i]!);
    } catch {
      out[name] = xs[i]!;
    }
  });
  return out;
}
