/** Request-shape readers for the UMP operations; problems are 400 `invalid_record` (the UMP error vocabulary). */
import { MemoryError } from "../core/errors.ts";

/** Requires a JSON object. */
export function umpObject(raw: unknown, what = "request body"): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new MemoryError("invalid_record", `${what} must be a JSON object`);
  return raw as Record<string, unknown>;
}

/** An optional string of at most `max` bytes. */
export function umpString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || new TextEncoder().encode(v).length > max) {
    throw new MemoryError("invalid_record", `${field} must be a string of at most ${max} bytes`, { field });
  }
  return v;
}

/** An optional boolean. */
export function umpBool(body: Record<string, unknown>, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new MemoryError("invalid_record", `${field} must be a boolean`, { field });
  return v;
}
