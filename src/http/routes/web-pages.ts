/**
 * OpenAPI entries for the operator web client (`src/web/`, SPEC §4.3 and §4.8 `/app`). The pages are Hono JSX
 * handlers, not JSON operations, but SPEC §9 item 6 says every registered route path appears in the document, so
 * each is declared here with its media type and gate: the shells and assets are public (a browser navigation cannot
 * carry a bearer; they hold no data), the fragments are gated like the API.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { BEARER, errorResponses, z } from "../api-router.ts";
import { RATE_LIMITED } from "../shapes.ts";

const PUBLIC_SHELL =
  "Public without a credential, like /health: a browser navigation cannot carry the bearer. The shell holds no data; " +
  "its panel is fetched from a gated /app/fragments/* route with the bearer the page asks for once (SPEC §5 lists " +
  "the public API routes; these are pages, not API routes).";

const html = (description: string) => ({ description, content: { "text/html": { schema: z.string() } } });
const idParam = { name: "id", in: "path" as const, required: true, schema: { type: "string" as const, pattern: "^[0-9]{1,15}$" } };

const SHELLS: Array<[string, string]> = [
  ["/app", "Review panel"],
  ["/app/quarantine", "Quarantine panel"],
  ["/app/ops", "Memory operations panel (SLA clocks, flagged inventory, gate health)"],
  ["/app/register", "Agent memory register (read-only)"],
  ["/app/recall", "Recall panel"],
];

interface Fragment { path: string; summary: string; gate: string; params?: unknown[] }
const FRAGMENTS: Fragment[] = [
  { path: "/app/fragments/review", summary: "Pending proposals as HTML (query `sort`: newest or score)", gate: "read",
    params: [{ name: "sort", in: "query", required: false, schema: { type: "string", enum: ["newest", "score"] } }] },
  { path: "/app/fragments/review/{id}", summary: "One pending proposal's card as HTML (409 when it is no longer pending)", gate: "read", params: [idParam] },
  { path: "/app/fragments/suggest/{id}", summary: "Memories a proposal may supersede, as HTML", gate: "read", params: [idParam] },
  { path: "/app/fragments/quarantine", summary: "Flagged rows as HTML", gate: "admin on global" },
  { path: "/app/fragments/ops", summary: "Operations panel data as HTML", gate: "admin on global" },
  { path: "/app/fragments/register", summary: "The UMP register as HTML", gate: "read" },
  { path: "/app/fragments/recall", summary: "A recall with provenance as HTML (query `q`)", gate: "read",
    params: [{ name: "q", in: "query", required: false, schema: { type: "string" } }] },
];

/** Declares the web client's pages, assets and fragments in the app's OpenAPI registry. */
export function declareWebPages(app: OpenAPIHono): void {
  const registry = app.openAPIRegistry;
  for (const [path, summary] of SHELLS) {
    registry.registerPath({
      method: "get", path, operationId: `getWeb${path.split("/").map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join("")}`,
      tags: ["web"], security: [], summary: `${summary} (HTML page shell)`, "x-cairn-choice": PUBLIC_SHELL,
      responses: { 200: html("The page shell"), ...RATE_LIMITED },
    });
  }
  for (const [path, type, id] of [["/app/assets/app.css", "text/css", "getWebAppCss"], ["/app/assets/app.js", "text/javascript", "getWebAppJs"]] as const) {
    registry.registerPath({
      method: "get", path, operationId: id, tags: ["web"], security: [], summary: "Web client asset (public, cacheable)",
      "x-cairn-choice": PUBLIC_SHELL, responses: { 200: { description: "The asset", content: { [type]: { schema: z.string() } } }, ...RATE_LIMITED },
    });
  }
  for (const f of FRAGMENTS) {
    registry.registerPath({
      method: "get", path: f.path, operationId: `getWebFragment${f.path.slice("/app/fragments".length).split(/[/{}]/).filter(Boolean).map((s) => s.charAt(0).toUpperCase() + s.slice(1)).join("")}`,
      tags: ["web"], security: BEARER, summary: `${f.summary}; gate: ${f.gate}`,
      ...(f.params ? { parameters: f.params as never } : {}),
      responses: { 200: html("An HTML fragment"), ...errorResponses(400, 401, 403, 404, 409) },
    });
  }
}
