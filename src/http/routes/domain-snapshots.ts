/**
 * Domain snapshot routes (SPEC §4.5, §8): `GET /domains/{name}/export`
 * streams the snapshot as `application/octet-stream` with
 * `Content-Disposition: attachment`; `POST /domains/{name}/import` streams
 * the raw bytes (up to 1 GiB, counted by the guard; bounded once gunzipped,
 * docs/limits.md "Snapshot import") into a new domain.
 * Gated admin on the path domain (`src/http/gates.ts`).
 */
import type { Hono } from "hono";
import { isMemoryError } from "../../core/errors.ts";
import type { Memory } from "../../memory.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { principalOf } from "../principal.ts";

const NameParam = z.object({ name: z.string().openapi({ param: { name: "name", in: "path" }, example: "work" }) });

const ImportReply = z.object({
  domain: z.string(), source_domain: z.string(),
  imported: z.record(z.string(), z.number().int()).openapi({ description: "Rows written per section: chunk, entity, relation, entity_chunk, proposal, tombstone, link, ump_record, ump_feedback, file_source, file_source_chunk" }),
}).openapi("DomainImport", {
  "x-cairn-choice": "reply shape; codes domain_exists 409, domain_protected 400, snapshot_invalid 400, snapshot_conflict 409, " +
    "snapshot_too_large 422 (gunzipped past CAIRN_SNAPSHOT_MAX_EXPANDED_MIB or CAIRN_SNAPSHOT_MAX_LINES; details {limit, max}), " +
    "deadline_exceeded 503 (past CAIRN_IMPORT_DEADLINE_MS, default 600 s)",
} as Record<string, unknown>);

const exportRoute = createRoute({
  method: "get", path: "/domains/{name}/export", operationId: "exportDomain", summary: "Stream a domain snapshot (gzip'd NDJSON, versioned header, SHA-256 trailer)",
  tags: ["domains"], security: BEARER, request: { params: NameParam },
  responses: {
    200: { description: "The snapshot bytes (format cairn-domain-snapshot/1, src/parcel/README.md)", content: { "application/octet-stream": { schema: z.string().openapi({ format: "binary" }) } } },
    ...errorResponses(400, 401, 403, 404),
  },
});

const importRoute = createRoute({
  method: "post", path: "/domains/{name}/import", operationId: "importDomain", summary: "Import a snapshot as a new domain (atomic; up to 1 GiB, streamed)",
  tags: ["domains"], security: BEARER, request: { params: NameParam },
  responses: {
    200: { description: "Imported", content: { "application/json": { schema: ImportReply } } },
    413: { description: "Body over 1 GiB (bare status, SPEC §7)" },
    ...errorResponses(400, 401, 403, 409, 422, 503, 507),
  },
});

/** Registers the snapshot export and import routes. */
export function domainSnapshotRoutes(app: Hono, memory: Memory): void {
  const r = apiRouter();
  r.openapi(exportRoute, async (c) => {
    const { stream, filename } = await memory.parcels.exportSnapshot(c.req.valid("param").name);
    return c.body(stream, 200, {
      "Content-Type": "application/octet-stream", "Content-Disposition": `attachment; filename="${filename}"`,
    }) as never;
  });
  r.openapi(importRoute, async (c) => {
    try {
      const out = await memory.parcels.importSnapshot(c.req.valid("param").name, c.req.raw.body, { reviewer: principalOf(c)?.subject ?? "unknown" });
      return c.json(out, 200);
    } catch (e) {
      // SPEC §7: a body over the limit is a bare 413, even when found mid-stream.
      if (isMemoryError(e) && e.code === "payload_too_large") return c.body(null, 413) as never;
      throw e;
    }
  });
  app.route("/", r);
}
