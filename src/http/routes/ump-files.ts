/**
 * The UMP file binding over HTTP (SPEC §4.2): `POST /ingest?format=ump`
 * (`{ump, records[]}`, each record with its own status; a one-record batch
 * keeps the plain remember reply) and `?format=ump-md` (the markdown
 * projection as the request body), `GET /export?format=ump` (the JSON
 * envelope) and `?format=ump-md` (one markdown document), and
 * `POST /sources/reconcile` (SPEC §4.4, the orphan sweep). These are Cairn
 * routes under the normal auth posture; a capability token presented on
 * them is honoured (verb `write` to import, `export` to export).
 */
import type { Context, Hono } from "hono";
import { MemoryError } from "../../core/errors.ts";
import { apiRouter, BEARER, createRoute, errorResponses, z } from "../api-router.ts";
import { json, q, UmpRecord } from "../shapes.ts";
import type { Memory } from "../../memory.ts";
import type { UmpActor } from "../../ump/actor.ts";
import { parseUmpJson, parseUmpMarkdown, serialiseUmpMarkdown } from "../../ump/file-projection.ts";
import { umpActor } from "./ump.ts";

const FORMATS = ["ump", "ump-md"];

/** The caller of a file-binding route: a capability token when one is presented, else the normal posture. */
function fileActor(c: Context, memory: Memory): Promise<UmpActor> {
  return umpActor(c, memory, false);
}

function formatOf(c: Context, dflt?: string): string {
  const f = c.req.query("format") ?? dflt;
  if (f === undefined || !FORMATS.includes(f)) {
    throw new MemoryError("invalid_request", `format must be one of ${FORMATS.join(", ")}`, { field: "format", allowed: FORMATS });
  }
  return f;
}

/** `POST /ingest?format=…`; returns undefined when no format was given (the structured door handles it). */
export async function umpIngest(c: Context, memory: Memory): Promise<Response | undefined> {
  if (c.req.query("format") === undefined) return undefined;
  const format = formatOf(c);
  const text = await c.req.text();
  const records = format === "ump-md" ? parseUmpMarkdown(text) : batchOf(text);
  const out = await memory.ump.importRecords(await fileActor(c, memory), records, { door: "/ingest?format=ump" });
  if (records.length !== 1) return c.json(out);
  const only = out.results[0] as { id?: string; result: string; error?: { code: string; message: string; details?: Record<string, unknown> } };
  // A one-record batch answers like remember: the record's error is the response's error.
  if (only.result === "rejected" && only.error && only.error.code !== "content_rejected") {
    throw new MemoryError(only.error.code, only.error.message, only.error.details);
  }
  const { index: _i, ...plain } = only as Record<string, unknown>;
  return c.json(plain);
}

function batchOf(text: string): unknown[] {
  if (text.trim() === "") throw new MemoryError("invalid_json", "request body must be JSON");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MemoryError("invalid_json", "request body is not valid JSON");
  }
  const env = body as { ump?: unknown; records?: unknown };
  if (env && typeof env === "object" && !Array.isArray(env) && env.ump !== undefined &&
    (typeof env.ump !== "string" || !/^(1\.\d+|0\.1)$/.test(env.ump))) {
    throw new MemoryError("invalid_record", `ump: unsupported version ${JSON.stringify(env.ump)?.slice(0, 40)}, expected "1.0"`);
  }
  return parseUmpJson(text);
}

const exportRoute = createRoute({
  method: "get", path: "/export", operationId: "exportRecords", tags: ["ump"], security: BEARER, summary: "Export UMP records (SPEC §4.2)",
  description: "`format=ump` (default): `{ump, exported_at, records}`. `format=ump-md`: one markdown document, a front-matter block plus body per record. " +
    "Every readable record, superseded versions included; forgotten and consent.exportable=false records left out; consent.redact paths stripped " +
    "(re-sealed). A capability token presented here needs the export verb and limits the records to its scope. A record that no longer " +
    "verifies (e.g. a legacy row whose text held a NUL) never fails the export whole: it is left out, named in `skipped` ({id, reason}) and " +
    "counted in `X-Cairn-Export-Skipped` (ids in `X-Cairn-Export-Skipped-Ids`, at most 50); `cairn check-consistency` names it too.",
  "x-cairn-choice": true,
  request: {
    query: z.object({
      format: q("ump (default) or ump-md", { enum: FORMATS }),
      raw: q("true: skip the read seam (a raw backup: the operator or an admin only, 403 otherwise; writes an export_raw audit row). Default false: every text field as the read seam emits it", { enum: ["true", "false"] }),
    }),
  },
  responses: {
    200: {
      description: "The export",
      headers: {
        "X-Cairn-Export-Skipped": { description: "Records left out because they no longer verify (only when some were)", schema: { type: "integer" } },
        "X-Cairn-Export-Skipped-Ids": { description: "Their ids, comma-separated, at most 50", schema: { type: "string" } },
      },
      content: {
        "application/json": {
          schema: z.object({
            ump: z.string(), exported_at: z.string(), records: z.array(UmpRecord),
            skipped: z.array(z.object({ id: z.string(), reason: z.string() })).optional(),
          }).openapi("UmpExport"),
        },
        "text/markdown": { schema: z.string() },
      },
    },
    ...errorResponses(400, 401, 403),
  },
});

const reconcile = createRoute({
  method: "post", path: "/sources/reconcile", operationId: "reconcileSources", tags: ["governance"], security: BEARER,
  summary: "Sweep orphans of deleted file sources (SPEC §4.4)",
  description: "Deletes `vault` chunks no active file source holds any more (each with a tombstone and an audit row), unlinks others, and drops emptied " +
    "deleted sources. Reply `{swept: [chunk ids], unlinked: [chunk ids], sources_removed}`. No body. A sweep with nothing to do writes nothing.",
  "x-cairn-choice": true,
  responses: {
    200: json(z.object({ swept: z.array(z.number().int()), unlinked: z.array(z.number().int()), sources_removed: z.number().int() }), "{swept, unlinked, sources_removed}"),
    ...errorResponses(401, 403),
  },
});

/** Registers `GET /export` and `POST /sources/reconcile`. */
export function umpFileRoutes(app: Hono, memory: Memory) {
  const r = apiRouter()
    .openapi(exportRoute, async (c) => {
      const format = formatOf(c, "ump");
      const rawParam = c.req.query("raw");
      if (rawParam !== undefined && rawParam !== "true" && rawParam !== "false") {
        throw new MemoryError("invalid_request", "raw must be true or false", { field: "raw" });
      }
      const env = await memory.ump.exportRecords(await fileActor(c, memory), { raw: rawParam === "true", format });
      if (env.skipped) {
        c.header("X-Cairn-Export-Skipped", String(env.skipped.length));
        c.header("X-Cairn-Export-Skipped-Ids", env.skipped.slice(0, 50).map((s) => s.id).join(", "));
      }
      if (format === "ump") return c.json(env as z.infer<typeof exportRoute.responses[200]["content"]["application/json"]["schema"]>, 200);
      return c.body(serialiseUmpMarkdown(env.records), 200, { "Content-Type": "text/markdown; charset=utf-8" }) as never;
    })
    .openapi(reconcile, async (c) => c.json(await memory.sources.reconcile(), 200));
  app.route("/", r);
  return r;
}
