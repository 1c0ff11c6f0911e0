/**
 * The one error class of Cairn (STYLE rule 7). Domain code throws
 * `MemoryError(code, message, details?)` with the spec's snake_case codes
 * (SPEC §7); the code-to-status map lives in `src/http/status.ts`.
 * Messages are safe: no paths, SQL or secrets.
 */

/** A failure a client or operator can act on, carrying a SPEC §7 code. */
export class MemoryError extends Error {
  readonly code: string;
  readonly details?: Record<string, unknown>;
  /** Explicit HTTP status for codes whose status the spec leaves to the route (e.g. 400 with no code). */
  readonly status?: number;

  constructor(code: string, message: string, details?: Record<string, unknown>, status?: number) {
    super(message);
    this.name = "MemoryError";
    this.code = code;
    if (details !== undefined) this.details = details;
    if (status !== undefined) this.status = status;
  }
}

/** True when `e` is a MemoryError (works across module copies). */
export function isMemoryError(e: unknown): e is MemoryError {
  return e instanceof MemoryError || (typeof e === "object" && e !== null && (e as { name?: string }).name === "MemoryError");
}
