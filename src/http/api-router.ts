/**
 * Schemas as code: every route is declared once with `createRoute` from
 * `@hono/zod-openapi` on a feature router made here, so the request
 * validation, the generated OpenAPI document and the typed client all come
 * from the same zod schemas — for request bodies, the domain's own schemas
 * (`src/core/schema.ts`: e.g. `IngestBody`, `RecallBody`), which HTTP, MCP and
 * the CLI all parse with. A failing schema never answers zod's own JSON: the
 * hook throws the MemoryError its first issue stands for (the field's SPEC §7
 * code, or `invalid_request` naming the field), and the app's `onError`
 * renders the envelope.
 */
import { OpenAPIHono, z } from "@hono/zod-openapi";
import type { Hook } from "@hono/zod-openapi";
import type { Env } from "hono";
import { refusal, type RefusalOptions } from "../core/schema.ts";

/**
 * A validation hook: the first issue becomes its SPEC §7 refusal (`batchKey`: see `RefusalOptions`). Generic so
 * that, passed to `openapi(route, handler, hook)`, it takes the route's types instead of widening them.
 */
export function refusalHook<T, E extends Env, P extends string, R>(o: Omit<RefusalOptions, "target"> = {}): Hook<T, E, P, R> {
  const hook = (result: { success: boolean; target: string; error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
    if (result.success) return undefined;
    throw refusal(result.error?.issues[0], { ...o, target: result.target });
  };
  return hook as unknown as Hook<T, E, P, R>;
}

// deno-lint-ignore no-explicit-any
const shapeHook = refusalHook<any, any, any, any>();

export { specError } from "../core/schema.ts";

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
