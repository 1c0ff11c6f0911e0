/**
 * THE gate table (SPEC §5 item 3): one row per matched, non-public route,
 * keyed by `"METHOD /pattern"` in Hono pattern syntax (`:param`). A matched
 * route without a row is refused with `route_ungated`; `test/http/gates.test.ts`
 * walks every registered route and fails on a missing row. Rows for routes
 * that other features add are listed ahead of them so merges just work; a row
 * whose route is not registered is harmless (unmatched paths stay 404).
 *
 * Add a row here whenever you add a route. Levels: read, write, admin on
 * global / on a path domain / on the body's domain, workflow, signed-webhook,
 * and `authenticated` (any bearer: only the claim promote route, which refuses everyone alike).
 */
import type { Gate } from "../authz/gate.ts";

/** The three public routes (SPEC §5 item 4): no credential, no gate row. */
export const PUBLIC_ROUTES: ReadonlySet<string> = new Set([
  "GET /health",
  "GET /ump/capabilities",
  "GET /.well-known/ump.json",
]);

/**
 * The operator web client's page shells and assets (SPEC §4.3, §4.8 `/app`):
 * public like the three routes above because a browser navigation cannot
 * carry a bearer; they hold no data. Every panel's data comes from the
 * gated `/app/fragments/*` rows below, fetched by the page with the bearer.
 */
export const PUBLIC_PAGES: ReadonlySet<string> = new Set([
  "GET /app",
  "GET /app/quarantine",
  "GET /app/ops",
  "GET /app/register",
  "GET /app/recall",
  "GET /app/assets/app.css",
  "GET /app/assets/app.js",
]);

/** True when `key` needs no credential (a public route or a web-client shell). */
export function isPublicKey(key: string): boolean {
  return PUBLIC_ROUTES.has(key) || PUBLIC_PAGES.has(key);
}

const read: Gate = { level: "read" };
const write: Gate = { level: "write" };
const adminGlobal: Gate = { level: "admin", on: "global" };
const adminDomain: Gate = { level: "admin", on: "domain", param: "name" };
const adminBodyDomain: Gate = { level: "admin", on: "body-domain" };
const workflow: Gate = { level: "workflow" };
const signedWebhook: Gate = { level: "signed-webhook" };
const anyPrincipal: Gate = { level: "authenticated" };
const workflowOrSigned: Gate = { level: "workflow", signed: true };
const umpRead: Gate = { level: "read", capability: "read" };
const umpWrite: Gate = { level: "write", capability: "write" };

/** Gate rows by `"METHOD /pattern"`. */
export const GATES: Readonly<Record<string, Gate>> = Object.freeze({
  // --- core and operations (SPEC §4.8, §9) ---
  "GET /": read,
  // The web client's data (src/web/): each fragment carries the gate of the API route it mirrors.
  "GET /app/fragments/review": read,
  "GET /app/fragments/review/:id": read,
  "GET /app/fragments/suggest/:id": read,
  "GET /app/fragments/quarantine": adminGlobal,
  "GET /app/fragments/ops": adminGlobal,
  "GET /app/fragments/register": read,
  "GET /app/fragments/recall": read,
  "GET /version": read,
  "GET /ready": read,
  "GET /stats": read,
  "GET /health/db": read,
  "GET /openapi.yaml": read,
  "GET /metrics": read,
  "GET /audit": adminGlobal,
  "GET /audit/verify": read,
  "GET /ops/authz/explain": adminGlobal,

  // --- recall and search (SPEC §4.1, §4.7) ---
  "POST /recall": read,
  "GET /search": read,

  // --- ingest doors (SPEC §4.2) ---
  "POST /ingest": write,
  "POST /ingest/batch": write,
  "POST /ingest/markdown": write,
  "POST /ingest/memory": write,
  "POST /ingest/conversation": write,
  "POST /add": write,
  "POST /ingest/proposal": write,
  "GET /export": adminGlobal,

  // --- review (SPEC §4.3): agents file, humans approve ---
  "GET /proposals": read,
  "GET /proposals/:id": read,
  "POST /proposals/:id/approve": adminGlobal,
  "POST /proposals/:id/reject": adminGlobal,

  // --- delete, purge, erasure, consolidation, quarantine (SPEC §4.4) ---
  "DELETE /memory/:id": adminGlobal,
  "POST /purge": adminGlobal,
  "POST /dsar": adminGlobal,
  "POST /consolidate/propose": write,
  "POST /consolidate": adminGlobal,
  "POST /consolidate/undo": adminGlobal,
  "GET /consolidate/links": read,
  "GET /dsar/certificates/:id": adminGlobal,
  "POST /dsar/verify": read,
  "GET /quarantine": adminGlobal,
  "POST /quarantine/:id/release": adminGlobal,
  "DELETE /quarantine/:id": adminGlobal,
  "POST /sources/reconcile": adminGlobal,
  "GET /connectors": read,
  "POST /connectors/register": adminGlobal,

  // --- domains (SPEC §4.5) ---
  "GET /domains": read,
  "POST /domains": write,
  "DELETE /domains/:name": adminDomain,
  "POST /domains/:name/vacuum": adminDomain,
  "GET /domains/:name/export": adminDomain,
  "POST /domains/:name/import": adminDomain,

  // --- graph (SPEC §4.6) ---
  "GET /graph/entity/:name": read,
  "GET /graph/relations": read,
  "GET /graph/traverse": read,
  "GET /graph/relationships/:id/history": adminGlobal,

  // --- UMP (SPEC §4.9): capability tokens accepted, verbs and scope checked per operation ---
  "POST /ump/remember": umpWrite,
  "GET /ump/memory/:id": umpRead,
  "POST /ump/recall": umpRead,
  "POST /ump/revise": umpWrite,
  "POST /ump/forget": umpWrite,
  "POST /ump/feedback": umpWrite,
  "GET /ump/subscribe": umpRead,
  "POST /ump/audit": umpRead,
  "GET /ump/audit/verify": umpRead,

  // --- parcels (SPEC §4.10) ---
  "POST /parcels/export": adminBodyDomain,
  "POST /parcels/import": adminBodyDomain,
  "GET /parcels": read,

  // --- workflow, case and channel routes (SPEC §4.11): the agent role is refused ---
  "POST /workflow/runs": workflow,
  "POST /workflow/runs/:id/complaint/lifecycle": workflow,
  "POST /workflow/runs/:id/status-ref": workflow,
  "GET /workflow/runs/:id": workflow,
  "POST /workflow/runs/:id/channel-out": workflow,
  "POST /workflow/runs/:id/notes": workflow,
  "POST /workflow/cases": workflow,
  "GET /workflow/events": workflow,
  "POST /kcs/translate": workflow,
  // KCS article reads (issue 17): knowledge, read level like recall
  "GET /kcs/articles": read,
  "GET /kcs/articles/:id": read,
  "GET /kcs/translations": read,
  // SPEC §5 item 10: the gateway mounts with the channel webhook secret (it holds no service token); an operator's
  // workflow bearer is accepted too.
  "POST /workflow/plugins/mount": workflowOrSigned,
  "GET /workflow/claim-schemas": workflow,
  "GET /workflow/claims": workflow,
  "POST /workflow/claims": workflow,
  "GET /workflow/claims/:id": workflow,
  "POST /workflow/claims/:id/verify": workflow,
  // SPEC §3: promote answers promotion_disabled for every actor, so every authenticated bearer reaches it.
  "POST /workflow/claims/:id/promote": anyPrincipal,
  "POST /workflow/claim-schemas": workflow,
  "POST /workflow/claim-batches": workflow,
  "GET /workflow/claim-batches": workflow,
  "GET /workflow/claim-batches/:id": workflow,
  "POST /workflow/claim-batches/:id/verify": workflow,
  // The opt-in model-provider lane (SPEC §1 item 3, issue 17): governed workflow only.
  "POST /workflow/runs/:id/kcs-draft": workflow,
  "POST /kcs/translate/suggest": workflow,
  // SPEC §5 item 10: the gateway holds only an HMAC webhook secret toward the service.
  "POST /webhooks/channel/:kind": signedWebhook,
  "POST /webhooks/channel/:kind/drain": signedWebhook,
});

/** The row key of a method and a pattern (HEAD is answered by GET routes). */
export function gateKey(method: string, pattern: string): string {
  return `${method === "HEAD" ? "GET" : method} ${pattern}`;
}
