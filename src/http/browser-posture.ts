/**
 * The browser-facing checks of the guard (issue 23 §1; SPEC §1 runtime rules,
 * §5 item 1), over the shared rule in `src/auth/browser-posture.ts` (the
 * messaging gateway applies the same one). Host not loopback or a foreign or
 * `null` Origin answer 403 `origin_refused` with `details.reason`; with a
 * credential configured neither applies: a browser cannot attach the bearer by
 * itself. The body-type rule (415, `src/http/media-types.ts`) applies in every
 * posture.
 */
import { bodyTypeAccepted, hostOriginRefusal, mediaTypeOf } from "../auth/browser-posture.ts";
import { MemoryError } from "../core/errors.ts";
import { bodyTypesOf } from "./media-types.ts";

export { hasBody, isLoopbackHost } from "../auth/browser-posture.ts";

/** Throws 403 `origin_refused` unless Host is loopback and Origin, when present, is this server's own. */
export function checkHostAndOrigin(host: string, origin: string | undefined): void {
  const reason = hostOriginRefusal(host, origin);
  if (reason === "host_not_loopback") throw new MemoryError("origin_refused", "Host is not a loopback name or address", { reason });
  if (reason === "origin_mismatch") throw new MemoryError("origin_refused", "Origin is not this server's own", { reason });
}

/** Throws 415 `unsupported_media_type` when a body's type is not one the route accepts. */
export function checkBodyType(routeKey: string, contentType: string | undefined, bodyPresent: boolean): void {
  const accepted = bodyTypesOf(routeKey);
  if (bodyTypeAccepted(accepted, contentType, bodyPresent)) return;
  const got = contentType === undefined ? "" : mediaTypeOf(contentType);
  throw new MemoryError("unsupported_media_type", `Content-Type must be ${accepted.join(" or ")}`, { accepted: [...accepted], received: got || null });
}
