/**
 * Parcel routes (SPEC §2.10, §4.10, §5 item 9, §7), declared as schemas in
 * code (issue 21). Export and import are gated "admin on the body's domain":
 * the gate lets a domain administrator through, and the service calls
 * `assertDomainAdmin` once the domain is known (for an import, `domain` or
 * the manifest's source domain), before anything is written.
 */
import type { Context, Hono } from "hono";
import { assertDomainAdmin } from "../../authz/oracle.ts";
import type { Memory } from "../../memory.ts";
import type { ParcelCaller } from "../../parcel/parcel-service.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { ParcelExportBody, ParcelImportBody } from "../../parcel/parcel-schema.ts";
import { principalOf } from "../principal.ts";

const Edge = z.object({
  from: z.string(), from_type: z.string().optional(), to: z.string(), to_type: z.string().optional(), type: z.string(),
  valid_at: z.string().optional(), invalid_at: z.string().optional(),
}).openapi("ParcelEdge");

const Row = z.object({
  content_hash: z.string().openapi({ description: "XXH3-64 of content (SPEC §2.1), 16 hex digits" }),
  content: z.string(), title: z.string().optional(), created_at: z.string(),
  labels: z.record(z.string(), z.unknown()).openapi({ description: "source, confidence and the optional labels of SPEC §2.1" }),
  edges: z.array(Edge),
}).openapi("ParcelRow");

const Manifest = z.object({
  format: z.literal("cairn-parcel/1"), source_domain: z.string(), region: z.string(), since: z.string().optional(), created_at: z.string(),
  signer: z.string(), row_count: z.number().int(), rows: z.array(Row),
}).openapi("ParcelManifest", { "x-cairn-choice": "manifest fields; signed bytes are its RFC 8785 canonical JSON" } as Record<string, unknown>);

const Parcel = z.object({
  manifest: Manifest,
  signature: z.string().openapi({ example: "ed25519:…" }),
  signed_by: z.string().openapi({ example: "did:key:z6Mk…" }),
}).openapi("Parcel");

const ExportBody = ParcelExportBody;

const ExportReply = z.object({
  parcel: Parcel, parcel_hash: z.string().openapi({ example: "sha256:…" }), source_domain: z.string(), region: z.string(),
  row_count: z.number().int(), ledger_id: z.number().int(),
}).openapi("ParcelExport");

const ImportBody = ParcelImportBody;

const ImportReply = z.object({
  parcel_hash: z.string(), signer: z.string(), source_domain: z.string(), domain: z.string(),
  received: z.number().int(), duplicate: z.number().int(),
  screened: z.object({ quarantined: z.number().int(), rejected: z.number().int() }),
  filed: z.number().int(), proposal_ids: z.array(z.number().int()), ledger_id: z.number().int(),
}).openapi("ParcelImport", { "x-cairn-choice": "reply counts: received = duplicate + rejected + filed; quarantined rows are filed" } as Record<string, unknown>);

const LedgerRow = z.object({
  id: z.number().int(), direction: z.enum(["in", "out"]), parcel_hash: z.string(), signer: z.string(), domain: z.string(),
  source_domain: z.string(), row_count: z.number().int(), reviewer: z.string(), counts: z.record(z.string(), z.unknown()), created_at: z.string(),
}).openapi("ParcelLedgerRow");

const errorsWithChoices = {
  ...errorResponses(400, 401, 403),
  409: { description: "signer_alias (import), or operator_key_missing (export; x-cairn-choice: 409, the server holds no key to sign with)",
    content: errorResponses(409)[409]!.content },
  422: { description: "parcel_too_large (x-cairn-choice: 422; the cap is 921,600 bytes of canonical manifest, so an import body fits the 1 MiB limit)",
    content: errorResponses(422)[422]!.content },
};

const exportRoute = createRoute({
  method: "post", path: "/parcels/export", operationId: "exportParcel", summary: "Export a signed parcel of a domain's promoted rows", tags: ["parcels"],
  security: BEARER, "x-cairn-choice": "operator_key_missing → 409, parcel_too_large → 422",
  request: { body: { required: true, content: { "application/json": { schema: ExportBody } } } },
  responses: { 200: { description: "The signed parcel", content: { "application/json": { schema: ExportReply } } }, ...errorsWithChoices },
} as Parameters<typeof createRoute>[0] & { method: "post"; path: "/parcels/export" });

const importRoute = createRoute({
  method: "post", path: "/parcels/import", operationId: "importParcel", summary: "Verify a parcel and file its new rows as pending proposals", tags: ["parcels"],
  security: BEARER, "x-cairn-choice": "parcel_too_large → 422; signature_invalid and parcel_invalid → 400",
  request: { body: { required: true, content: { "application/json": { schema: ImportBody } } } },
  responses: { 200: { description: "What arrived and what was filed", content: { "application/json": { schema: ImportReply } } }, ...errorsWithChoices },
} as Parameters<typeof createRoute>[0] & { method: "post"; path: "/parcels/import" });

const ledgerRoute = createRoute({
  method: "get", path: "/parcels", operationId: "listParcelLedger", summary: "Page the parcel ledger", tags: ["parcels"], security: BEARER,
  request: {
    query: z.object({
      domain: z.string().optional(), cursor: z.string().optional().openapi({ description: "next_cursor of the previous page" }),
      limit: z.string().optional().openapi({ description: "1 to 500, default 100" }),
    }),
  },
  responses: {
    200: { description: "A page of ledger rows", content: { "application/json": { schema: z.object({ rows: z.array(LedgerRow), next_cursor: z.string().optional() }) } } },
    ...errorResponses(400, 401, 403),
  },
});

function callerOf(c: Context, memory: Memory): ParcelCaller {
  const p = principalOf(c);
  return { reviewer: p?.subject ?? "unknown", authorize: (domain) => assertDomainAdmin(p, domain, memory.security.rolelessPosture) };
}

/** Registers `POST /parcels/export`, `POST /parcels/import` and `GET /parcels`. */
export function parcelRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  // deno-lint-ignore no-explicit-any
  r.openapi(exportRoute, async (c: any) => c.json(await memory.parcels.exportParcel(c.req.valid("json"), callerOf(c, memory)), 200));
  // deno-lint-ignore no-explicit-any
  r.openapi(importRoute, async (c: any) => c.json(await memory.parcels.importParcel(c.req.valid("json"), callerOf(c, memory)), 200));
  r.openapi(ledgerRoute, async (c) => c.json(await memory.parcels.ledger(c.req.valid("query")), 200));
  app.route("/", r);
}
