/** Turns a non-2xx answer into a `MemoryError` carrying the SPEC §7 code (issue 21: the typed client). */
import { MemoryError } from "../core/errors.ts";

/** Reads the SPEC §7 envelope of a refused request and throws it as a MemoryError (status in `.status`). */
export async function throwFor(res: Response): Promise<never> {
  const text = await res.text().catch(() => "");
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch { /* not JSON */ }
  const env = body as { error?: unknown; code?: unknown } | undefined;
  const inner = env && typeof env.error === "object" && env.error !== null ? env.error as { code?: unknown; message?: unknown; details?: unknown } : undefined;
  if (inner && typeof inner.code === "string") {
    const details = typeof inner.details === "object" && inner.details !== null ? inner.details as Record<string, unknown> : undefined;
    throw new MemoryError(inner.code, typeof inner.message === "string" ? inner.message : inner.code, details, res.status);
  }
  // SPEC §7: the 429 body is {error, code}; the 413 is bare.
  if (env && typeof env.code === "string") throw new MemoryError(env.code, env.code, undefined, res.status);
  if (res.status === 413) throw new MemoryError("payload_too_large", "request body over the size limit", undefined, 413);
  throw new MemoryError("http_error", `HTTP ${res.status}`, undefined, res.status);
}
