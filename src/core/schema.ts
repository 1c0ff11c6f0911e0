/**
 * Request schemas that validate and type (STYLE: zod, one schema per body). A body is declared once as a zod schema
 * next to the domain code that serves it; the HTTP route, the generated OpenAPI document, the typed client and the
 * domain (which HTTP, MCP and the CLI all call) use that one schema. A field that fails names its SPEC §7 code with
 * `specError(code, message, details)`; `refusal` turns the first zod issue into the `MemoryError` the domain
 * validators answered before, so every binding keeps the same codes, messages, details and statuses. SPEC §4:
 * unknown request fields are ignored (stripped); a top-level `null` counts as an absent field where the domain
 * validators read it so. Schemas use plain
 * `zod` with `.meta()` (the OpenAPI generator reads it), not the HTTP layer's helpers.
 */
// zod 4 gives a schema the methods its classes have when it is created, and the OpenAPI generator registers a
// component through `.openapi()`, which @hono/zod-openapi adds to zod on load. Every request schema is built in a
// module that imports this one, so loading it first means every schema has `.openapi()`, however a program imports
// Cairn (the library alone, the CLI, the server). It adds nothing else at run time.
import "@hono/zod-openapi";
import { z } from "zod";
import { MemoryError } from "./errors.ts";

/** What a failing check answers: a SPEC §7 code, a safe message and details (an explicit status where the code has none). */
export interface Refusal {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  status?: number;
}

// A coded refusal travels through zod as its issue message: this mark, then the refusal as JSON.
const MARK = "\u0000spec:";

/** A zod issue as the refusal builders see it (the failing input, the issue code). */
export type IssueView = { input?: unknown; code?: string };

/**
 * A zod `error` option whose failure answers `code` (SPEC §7): `z.string({ error: specError("title_invalid", "…") })`.
 * `{at}` in the message or in a string detail becomes the failing field's path (`entities[3].name`), `{dotted}` the
 * same path with dots (`evidence.3`). `details` may be a function of the issue (e.g. to report the length received).
 */
export function specError(
  code: string,
  message: string,
  details?: Record<string, unknown> | ((iss: IssueView) => Record<string, unknown>),
  status?: number,
): (iss: IssueView) => string {
  return (iss) => {
    const d = typeof details === "function" ? details(iss) : details;
    return MARK + JSON.stringify({ code, message, ...(d ? { details: d } : {}), ...(status ? { status } : {}) });
  };
}

/** Picks one of several refusals by the failing issue (e.g. missing → `content_empty`, wrong type → `invalid_request`). */
export function specErrorBy(pick: (iss: IssueView) => (iss: IssueView) => string): (iss: IssueView) => string {
  return (iss) => pick(iss)(iss);
}

/** True when the issue is about an absent (or null) value. */
export const isAbsent = (iss: IssueView): boolean => iss.input === undefined || iss.input === null;

type PathKey = PropertyKey;

/** `entities[3].name` for `["entities", 3, "name"]`. */
export function renderPath(path: readonly PathKey[]): string {
  let out = "";
  for (const k of path) out += typeof k === "number" ? `[${k}]` : out === "" ? String(k) : `.${String(k)}`;
  return out;
}

/** Options of `refusal`. */
export interface RefusalOptions {
  /**
   * A key holding an array of whole bodies (`/ingest/batch` `items`): an item's refusal keeps the item's own code and
   * status, its message is prefixed `items[i]: ` and `details.index` is the item's index.
   */
  batchKey?: string;
  /** Where the value came from, reported for an uncoded issue (`json`, `query`, …). */
  target?: string;
}

/** The `MemoryError` a zod issue stands for (a coded refusal, or `invalid_request` naming the field). */
export function refusal(issue: { path: readonly PathKey[]; message: string } | undefined, o: RefusalOptions = {}): MemoryError {
  let path = issue?.path ?? [];
  let prefix = "";
  let batchIndex: number | undefined;
  if (o.batchKey !== undefined && path[0] === o.batchKey && typeof path[1] === "number") {
    batchIndex = path[1];
    prefix = `${o.batchKey}[${batchIndex}]: `;
    path = path.slice(2);
  }
  const at = renderPath(path);
  const dotted = path.map(String).join(".");
  const lastIndex = [...path].reverse().find((k): k is number => typeof k === "number");
  const message = issue?.message ?? "invalid";
  let r: Refusal;
  if (message.startsWith(MARK)) {
    r = JSON.parse(message.slice(MARK.length)) as Refusal;
    r.message = r.message.replaceAll("{at}", at).replaceAll("{dotted}", dotted);
    if (r.details) {
      let placed = false;
      for (const [k, v] of Object.entries(r.details)) {
        if (typeof v !== "string") continue;
        if (v.includes("{dotted}")) r.details[k] = v.replaceAll("{dotted}", dotted);
        if (!v.includes("{at}")) continue;
        r.details[k] = v.replaceAll("{at}", at);
        placed = true;
      }
      // A refusal that names its item's path also names the item's index (the domain validators' `withIndex`).
      if (placed && lastIndex !== undefined && r.details.index === undefined) r.details.index = lastIndex;
    }
  } else {
    const field = at || o.target || "body";
    r = { code: "invalid_request", message: `${field}: ${message}`, details: { field } };
  }
  if (batchIndex !== undefined) r.details = { ...(r.details ?? {}), index: batchIndex };
  return new MemoryError(r.code, prefix + r.message, r.details, r.status);
}

/** Parses `raw` with `schema`, or throws the first issue as its SPEC §7 `MemoryError`. */
export function parseWith<S extends z.ZodType>(schema: S, raw: unknown, o: RefusalOptions = {}): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  throw refusal(r.error.issues[0], o);
}

/** Reads a top-level `null` as an absent field, for every key or for the listed ones (see `BodyOptions.nulls`). */
function dropNulls(v: unknown, keys?: readonly string[]): unknown {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null || (keys !== undefined && !keys.includes(k))) out[k] = x;
  return out;
}

/** The refusal for a body that is not a JSON object (the domain validators' `requireObject`). */
export const NOT_AN_OBJECT = specError("invalid_request", "request body must be a JSON object");

/** Options of `body`. */
export interface BodyOptions<Out> {
  /** The refusal for a body that is not a JSON object (default `invalid_request`). */
  error?: (iss: IssueView) => string;
  /** The OpenAPI side: `id` names the component; `description`, `x-cairn-choice`, … */
  meta?: z.core.GlobalMeta;
  /** A rule over several fields checked before any field (its refusal answers first), e.g. "exactly one of". */
  before?: { ok: (raw: Record<string, unknown>) => boolean; error: (iss: IssueView) => string };
  /** A rule over several fields checked once every field passed, e.g. "at least one of". */
  after?: { ok: (parsed: Out) => boolean; error: (iss: IssueView) => string };
  /**
   * Which top-level fields read `null` as absent: every one (the default), none (`"keep"`: a body whose fields carry
   * arbitrary JSON, where null is a value), or the listed ones — the fields the domain validators always read so,
   * so that a `null` elsewhere keeps being refused as before.
   */
  nulls?: "absent" | "keep" | readonly string[];
}

/**
 * A request body: a zod object (unknown keys stripped, SPEC §4) whose top-level nulls count as absent (see `nulls`).
 * Typed as the object's input and output.
 */
export function body<Shape extends z.ZodRawShape>(
  shape: Shape,
  o: BodyOptions<z.output<z.ZodObject<Shape>>> = {},
): z.ZodType<z.output<z.ZodObject<Shape>>, z.input<z.ZodObject<Shape>>> {
  const obj = z.object(shape, { error: o.error ?? NOT_AN_OBJECT });
  const checked = o.after ? obj.refine(o.after.ok, { error: o.after.error }) : obj;
  const before = o.before;
  const piped = z.preprocess((v, ctx) => {
    const d = o.nulls === "keep" ? v : dropNulls(v, Array.isArray(o.nulls) ? o.nulls : undefined);
    if (before && typeof d === "object" && d !== null && !Array.isArray(d) && !before.ok(d as Record<string, unknown>)) {
      ctx.addIssue({ code: "custom", message: before.error({ input: d, code: "custom" }), input: d });
    }
    return d;
  }, checked);
  return (o.meta ? piped.meta(o.meta) : piped) as unknown as z.ZodType<z.output<z.ZodObject<Shape>>, z.input<z.ZodObject<Shape>>>;
}

const enc = new TextEncoder();

/** UTF-8 length of a string (SPEC §8 limits are in bytes). */
export const byteLength = (s: string): number => enc.encode(s).length;

/**
 * An optional string field of at most `max` bytes (the domain validators' `optionalString`): a wrong type or an
 * over-long value is `invalid_request` naming the field.
 */
export function optionalText(field: string, max: number, meta?: z.core.GlobalMeta) {
  const s = z
    .string({ error: specError("invalid_request", `${field} must be a string`, { field }) })
    .refine((v) => byteLength(v) <= max, { error: specError("invalid_request", `${field} must be at most ${max} bytes`, { field, max }) });
  return (meta ? s.meta(meta) : s).optional();
}

/**
 * A field that is read only when it has the right type and ignored otherwise (a few fields predate validation and
 * were always lenient). Typed as `schema`. The OpenAPI generator reads any field that accepts null as nullable, so
 * give its JSON type in `.meta({ type })` (SPEC §4: optional fields are omitted, never null).
 */
export function ignoredUnless<S extends z.ZodType>(schema: S): z.ZodOptional<S> {
  return z.preprocess((v) => (schema.safeParse(v).success ? v : undefined), schema.optional()) as unknown as z.ZodOptional<S>;
}

/** An optional field inside a nested object where `null` also means absent (as at a body's top level); `.meta({ type })` as for `ignoredUnless`. */
export function nullAsAbsent<S extends z.ZodType>(schema: S): z.ZodOptional<S> {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional()) as unknown as z.ZodOptional<S>;
}

/** An optional boolean field (the domain validators' `optionalBool`). */
export function optionalFlag(field: string, meta?: z.core.GlobalMeta) {
  const b = z.boolean({ error: specError("invalid_request", `${field} must be a boolean`, { field }) });
  return (meta ? b.meta(meta) : b).optional();
}
