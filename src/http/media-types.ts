/**
 * Which request body types each route accepts (issue 23 §1). A browser sends
 * `text/plain`, form and multipart bodies cross-site without a preflight, so a
 * JSON route that parsed them would be open to request forgery; every route
 * therefore takes `application/json` unless its row here says otherwise. The
 * table is keyed like the gate table (`"METHOD /pattern"`), so a new route is
 * covered by the default without an edit. Refusal: 415 `unsupported_media_type`.
 */

/** The body types of a route without a row. */
export const DEFAULT_BODY_TYPES: readonly string[] = ["application/json"];

/** Routes whose bodies are not (only) JSON; none of these types is one a browser sends cross-site unpreflighted. */
export const BODY_TYPES: Readonly<Record<string, readonly string[]>> = Object.freeze({
  // SPEC §8: the raw domain snapshot, up to 1 GiB.
  // Binary only: a JSON-typed body would be read whole by the guard's well-formedness check before the route streams it.
  "POST /domains/:name/import": ["application/octet-stream"],
  // SPEC §4.2: `?format=ump-md` carries the markdown projection as the body.
  "POST /ingest": ["application/json", "text/markdown"],
});

export { mediaTypeOf } from "../auth/browser-posture.ts";

/** The accepted body types of a route key. */
export function bodyTypesOf(routeKey: string): readonly string[] {
  return BODY_TYPES[routeKey] ?? DEFAULT_BODY_TYPES;
}
