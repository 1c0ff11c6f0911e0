/**
 * RFC 8594 `Deprecation` header on the original 0.9.x route set (SPEC §9.4):
 * the legacy routes plus the core routes the spec names. Routes added later
 * (e.g. `/ingest/markdown`) never carry it.
 */
import { DEPRECATED_SINCE } from "../core/version.ts";

/** "METHOD path" of routes that carry the header (route patterns in Hono syntax). */
export const DEPRECATED_ROUTES: ReadonlySet<string> = new Set([
  "GET /search",
  "POST /add",
  "GET /health",
  "GET /ready",
  "GET /stats",
  "GET /version",
  "GET /audit",
  "GET /metrics",
  "GET /openapi.yaml",
]);

/** The header value. */
export const DEPRECATION_VALUE = `version="${DEPRECATED_SINCE}"`;
