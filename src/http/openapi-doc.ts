/**
 * The OpenAPI 3.1 document, generated from the route declarations of every
 * feature router mounted on the app (issue 21: schemas as code). The bearer
 * scheme, the document's prose and the auth posture (`x-cairn-auth`, this
 * project's choices where SPEC §5/§8 say "not shown") live here; routes carry
 * their own summaries, schemas and `x-cairn-choice` markers.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { API_LABEL, VERSION } from "../core/version.ts";
import { AUTH_NOTES } from "./openapi-notes.ts";
import { toYaml } from "./yaml-emit.ts";

/** The generated document as a plain object. */
export function openApiDocument(app: OpenAPIHono): Record<string, unknown> {
  // deno-lint-ignore no-explicit-any
  const a = app as OpenAPIHono<any, any, any>;
  if (!a.openAPIRegistry.definitions.some((d) => d.type === "component" && d.componentType === "securitySchemes")) {
    a.openAPIRegistry.registerComponent("securitySchemes", "bearer", {
      type: "http", scheme: "bearer",
      description: "The operator bearer (AUTH_TOKEN_FILE), a JWT/JWS, or on /ump/ routes a UMP capability token (umpcap.…). Without a configured credential a loopback caller needs none.",
    });
    // SPEC §5 item 8: inbound channel envelopes are Standard-Webhooks signed (webhook-id, webhook-timestamp, webhook-signature).
    a.openAPIRegistry.registerComponent("securitySchemes", "standardWebhooks", {
      type: "apiKey", in: "header", name: "webhook-signature",
      description: "Standard-Webhooks signature (v1,<base64 HMAC-SHA256>) over `webhook-id.webhook-timestamp.body` with the channel secret (CAIRN_CHANNEL_WEBHOOK_SECRET_FILE); webhook-timestamp within ±300 s; a replayed webhook-id is refused.",
    });
  }
  const doc = a.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Cairn", version: VERSION, license: { name: "MIT", url: "https://opensource.org/license/mit" },
      description: `Cairn, a local-first governed memory and decision store for AI agents (${API_LABEL}).\n` +
        'Shapes marked "x-cairn-choice" are this project\'s choice where the interface specification says "not shown". ' +
        "Every non-2xx answer carries the SPEC §7 envelope except the bare 413 and the 429 body. " +
        "Generated from the route declarations (src/http/routes/); do not edit by hand: `npm run openapi`.",
    },
    servers: [{ url: "http://127.0.0.1:8765", description: "The default local bind" }],
    security: [{ bearer: [] }],
  }) as unknown as Record<string, unknown>;
  const paths = doc.paths as Record<string, Record<string, unknown>> | undefined;
  // Stable order: paths sorted, so the committed file only changes when a declaration does.
  const sorted = Object.fromEntries(Object.entries(paths ?? {}).sort(([x], [y]) => x.localeCompare(y)));
  const tags = [...new Set(Object.values(sorted).flatMap((ops) => Object.values(ops).flatMap((o) => (o as { tags?: string[] }).tags ?? [])))].sort();
  return { ...doc, tags: tags.map((name) => ({ name, description: TAGS[name] ?? name })), paths: sorted, "x-cairn-auth": AUTH_NOTES };
}

/** The generated document as YAML (served at `/openapi.yaml`, committed as `openapi.yaml`). */
export function openApiYaml(app: OpenAPIHono): string {
  return toYaml(openApiDocument(app));
}

const TAGS: Record<string, string> = {
  core: "Health, version, readiness, counts and this document (SPEC §4.8, §9)",
  ingest: "Write doors (SPEC §4.2)",
  recall: "Recall and the deprecated search (SPEC §4.1, §4.7)",
  domains: "Domains (SPEC §4.5)",
  governance: "Review, consolidation, purge, erasure and quarantine (SPEC §4.3, §4.4)",
  connectors: "Connector registry and registration (SPEC §2.12, §4.4); syncs run from the CLI",
  graph: "The entity graph (SPEC §4.6)",
  ump: "Universal Memory Protocol routes (SPEC §4.9)",
  web: "The operator web client's pages, assets and HTML fragments (SPEC §4.3, §4.8 /app)",
  audit: "The hash-chained audit log (SPEC §4.8)",
  ops: "Operations: metrics and authorization explain (SPEC §4.8)",
};
