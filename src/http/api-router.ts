/**
 * Schemas as code (issue 21): every route is declared once with
 * `createRoute` from `@hono/zod-openapi` on a feature router made here, so the
 * request validation, the generated OpenAPI document and the typed client all
 * come from the same zod shapes. A failing shape never answers zod's own JSON:
 * the hook throws a MemoryError, and the app's `onError` renders the SPEC §7
 * envelope. Spec-specific codes (`title_invalid`, `limit_out_of_range`, …) stay
 * in the domain validators (shared by HTTP, MCP and CLI); a shape may name its
 * own code with `.meta({ "x-error-code": "…" })` on a field.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import { MemoryError } from "../core/errors.ts";

/** The code a failing request shape answers with when its field names none. */
export const SHAPE_ERROR_CODE = "invalid_request";

// deno-lint-ignore no-explicit-any
const shapeHook: Hook<any, any, any, any> = (result) => {
  if (result.success) return;
  const issue = result.error.issues[0];
  const field = issue?.path?.map(String).join(".") || result.target;
  const coded = CODED.exec(issue?.message ?? "");
  if (coded) throw new MemoryError(coded[1]!, coded[2]!, { field });
  throw new MemoryError(SHAPE_ERROR_CODE, `${field}: ${issue?.message ?? "invalid"}`, { field, target: result.target });
};

// A field's own spec code travels in its zod error message as "code: message" (see `specError`).
const CODED = /^([a-z][a-z0-9]*(?:_[a-z0-9]+)+): (.+)$/s;

/** A zod `error` option that makes a failing field answer a SPEC §7 code: `z.string({ error: specError("domain_invalid", "name must be a string") })`. */
export function specError(code: string, message: string): () => string {
  return () => `${code}: ${message}`;
}

/** A feature router: an OpenAPIHono whose validation failures become SPEC §7 envelopes. Mount with `app.route("/", router)`. */
export function apiRouter(): OpenAPIHono {
  return new OpenAPIHono({ defaultHook: shapeHook });
}

/** The SPEC §7 error envelope as a response schema. */
export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string().openapi({ example: "not_found" }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi("ErrorEnvelope");

/** A JSON error response entry. */
export type ErrorResponse = { description: string; content: { "application/json": { schema: typeof ErrorEnvelope } } };

/** `responses` entries for the usual refusals, spread into a route's responses (keys stay literal, so typed clients see them). */
export function errorResponses<S extends number>(...statuses: S[]): Record<S, ErrorResponse> {
  const out = {} as Record<S, ErrorResponse>;
  for (const s of statuses) out[s] = { description: DESCRIPTIONS[s] ?? "Error", content: { "application/json": { schema: ErrorEnvelope } } };
  return out;
}

const DESCRIPTIONS: Record<number, string> = {
  400: "Bad request (SPEC §7 envelope)",
  401: "Missing, invalid or expired credential",
  403: "Forbidden",
  404: "Unknown id",
  409: "Conflict",
  415: "Unsupported media type",
  422: "Unprocessable",
  500: "Internal error",
  502: "Bad gateway: an upstream (e.g. the model provider) answered wrongly",
  503: "Unavailable",
  507: "Capacity guard refused the write",
};

/** Bearer security requirement for `createRoute({ security })`; public routes pass `[]`. */
export const BEARER = [{ bearer: [] as string[] }];

export { createRoute, z } from "@hono/zod-openapi";
