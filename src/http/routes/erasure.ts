/**
 * Purge and erasure routes (SPEC §4.4, §1 item 6, §3): thin bindings over
 * `memory.erasure`, declared as schemas in code (issue 21).
 */
import type { Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { readJson } from "../read-json.ts";
import { DsarBody, PurgeBody } from "../../erasure/erasure-schema.ts";
import { AnyObject, docBody, json, jsonBody, pathParam } from "../shapes.ts";

const Certificate = z.object({ format: z.string(), id: z.string(), issued_at: z.string(), digest: z.string() }).openapi("ErasureCertificate");

const purge = createRoute({
  method: "post", path: "/purge", operationId: "purge", tags: ["governance"], security: BEARER,
  summary: "Delete chunks by id list or by owner, with tombstones and one audit row", "x-cairn-choice": "Body {ids: [integer]} or {owner} (exactly one). The owner is a chunk's meta.owner (set by doors that know one, e.g. an approved proposal's owner). One transaction: tombstones, vectors, owned relation references nulled, chunk rows, the proposals that promoted them and consolidation links touching them, and what hangs off them (UMP record rows, feedback and vault links; KCS revisions, an emptied article with its translations and their proposals; claims citing the chunks as evidence; channel/out envelopes, inbound channel messages and merge suggestions bound to the deleted proposals), one purge audit row; id lists are cut into statements of at most 900. Reply {purged, ids, proposals_deleted, tables: {<table>: rows deleted, tables with none left out}, missing?, audit_id?}.",
  request: { body: jsonBody(PurgeBody) },
  responses: {
    200: json(z.object({
      purged: z.number().int(), ids: z.array(z.number().int()), proposals_deleted: z.number().int(), tables: z.record(z.string(), z.number().int()),
      missing: z.array(z.number().int()).optional(), audit_id: z.number().int().optional(),
    }).openapi("PurgeResult"), "Purge result"),
    ...errorResponses(400, 401, 403),
  },
});

const dsar = createRoute({
  method: "post", path: "/dsar", operationId: "dsar", tags: ["governance"], security: BEARER,
  summary: "Data-subject erasure — locate, export, purge, certificate (SPEC §1 item 6, §3)", "x-cairn-choice": "Body {owner?, email?, match? (≥3 chars), dry_run?}. Locates chunks by meta.owner or content/title containing the email or match text (ASCII case-insensitive); exports them; purges them; deletes proposals reachable through promoted_chunk_id and (content-match delete) proposals owned by the subject or whose content, title or sourcing prompt contains the email or match text; deletes graph entities whose name contains the email or match text, with their edges; reaches every other table whose text can name the subject (chunks of UMP records, KCS revisions and file sources naming it; workflow event payloads and run state/case records redacted in place to [erased], a matching bound conversation unbound; channel/out envelopes, inbound channel messages, claims, KCS translations, UMP feedback and file sources naming it deleted; tombstone reasons naming it rewritten); all in one transaction with one erasure audit row and the stored certificate. Any failure rolls everything back and issues no certificate. Reply {dry_run, located{chunks, proposals, tables}, export{chunks[], proposals[], workflow_events[], workflow_runs[], claims[]}, certificate?}. Certificate (cairn-erasure-certificate/1): {format, id, issued_at, subject{fields, salt, digest}, erased{chunk_ids, proposal_ids, links, entities, relations, tables{<table>: rows deleted}, redacted{<table>: rows rewritten}, retained{audit_log: append-only rows that already named the subject, left as written}}, digest, audit{row_id, prev_hash, row_hash}}; digest = sha256hex(JCS of the fields before digest); subject.digest = sha256hex(JCS {salt, subject}) with the email lowercased. Verify with POST /dsar/verify or `cairn verify-certificate <file>`.",
  request: { body: jsonBody(DsarBody) },
  responses: {
    200: json(z.object({
      dry_run: z.boolean(), located: z.object({ chunks: z.number().int(), proposals: z.number().int(), tables: z.record(z.string(), z.number().int()) }),
      export: AnyObject, certificate: Certificate.optional(),
    }).openapi("DsarResult"), "Erasure result"),
    ...errorResponses(400, 401, 403, 500),
  },
});

const certificate = createRoute({
  method: "get", path: "/dsar/certificates/{id}", operationId: "getCertificate", tags: ["governance"], security: BEARER,
  summary: "A stored deletion certificate", "x-cairn-choice": "reply: the certificate; 404 not_found",
  request: { params: z.object({ id: pathParam("id") }) },
  responses: { 200: json(Certificate, "Certificate"), ...errorResponses(401, 403, 404) },
});

const verify = createRoute({
  method: "post", path: "/dsar/verify", operationId: "verifyCertificate", tags: ["governance"], security: BEARER,
  summary: "Verify a deletion certificate against this store's audit chain", "x-cairn-choice": "Body: the certificate, or {certificate, subject?: {owner?, email?, match?}}. Reply {valid, checks: [{name: format|digest|audit_row|chain|subject, ok, detail?}]}.",
  // The certificate itself or {certificate, subject?}: read by the handler, which tells the two apart.
  request: {
    body: docBody({
      "application/json": {
        oneOf: [{ $ref: "#/components/schemas/ErasureCertificate" }, {
          type: "object", required: ["certificate"],
          properties: { certificate: { $ref: "#/components/schemas/ErasureCertificate" }, subject: { type: "object", properties: { owner: { type: "string" }, email: { type: "string" }, match: { type: "string" } } } },
        }],
      },
    }),
  },
  responses: {
    200: json(z.object({ valid: z.boolean(), checks: z.array(z.object({ name: z.string(), ok: z.boolean(), detail: z.string().optional() })) }), "Verification result"),
    ...errorResponses(400, 401, 403),
  },
});

/** Registers `/purge`, `/dsar`, `/dsar/certificates/{id}` and `/dsar/verify`. */
export function erasureRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(purge, async (c) => c.json(await memory.erasure.purge(c.req.valid("json")), 200))
    .openapi(dsar, async (c) => c.json(await memory.erasure.dsar(c.req.valid("json")) as unknown as z.infer<typeof dsar.responses[200]["content"]["application/json"]["schema"]>, 200))
    .openapi(certificate, async (c) => c.json(await memory.erasure.certificate(c.req.valid("param").id) as unknown as z.infer<typeof Certificate>, 200))
    .openapi(verify, async (c) => {
      const b = await readJson(c);
      // Body: the certificate itself, or {certificate, subject?}.
      const wrapped = typeof b === "object" && b !== null && "certificate" in b;
      const cert = wrapped ? (b as { certificate: unknown }).certificate : b;
      const s = wrapped ? (b as { subject?: unknown }).subject : undefined;
      if (s !== undefined && (typeof s !== "object" || s === null || Object.values(s).some((v) => typeof v !== "string"))) {
        throw new MemoryError("invalid_request", "subject must be an object of strings {owner?, email?, match?}", { field: "subject" });
      }
      return c.json(await memory.erasure.verify(cert, s as Record<string, string> | undefined), 200);
    });
  app.route("/", r);
  return r;
}
