/** Small typed field readers shared by request validators (SPEC §4: wrong-typed field → 400 naming it). */
import { MemoryError } from "../core/errors.ts";

/** Requires a JSON object body. */
export function requireObject(raw: unknown): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new MemoryError("invalid_request", "request body must be a JSON object");
  }
  return raw as Record<string, unknown>;
}

/** Reads an optional string field of at most `max` bytes. */
export function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new MemoryError("invalid_request", `${field} must be a string`, { field });
  if (new TextEncoder().encode(v).length > max) throw new MemoryError("invalid_request", `${field} must be at most ${max} bytes`, { field, max });
  return v;
}

/** Reads an optional boolean field. */
export function optionalBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new MemoryError("invalid_request", `${field} must be a boolean`, { field });
  return v;
}
