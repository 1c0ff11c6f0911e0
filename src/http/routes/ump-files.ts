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

/** Registers `GET /export` and `POST /sources/reconcile`. */
export function umpFileRoutes(app: Hono, memory: Memory): void {
  app.get("/export", async (c) => {
    const format = formatOf(c, "ump");
    const env = await memory.ump.exportRecords(await fileActor(c, memory));
    if (format === "ump") return c.json(env);
    return c.body(serialiseUmpMarkdown(env.records), 200, { "Content-Type": "text/markdown; charset=utf-8" });
  });
  app.post("/sources/reconcile", async (c) => c.json(await memory.sources.reconcile()));
}
