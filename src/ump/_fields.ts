/** Request-shape readers for the UMP operations; problems are 400 `invalid_record` (the UMP error vocabulary). */
import { MemoryError } from "../core/errors.ts";

/**
 * Requires a JSON object. A request body's optional `ump` member must name a version this server speaks
 * (UMP notes: an unknown major version is refused; "0.1" and "1.x" are read as 1.0), as on remember.
 */
export function umpObject(raw: unknown, what = "request body"): Record<string, unknown> {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw new MemoryError("invalid_record", `${what} must be a JSON object`);
  const v = (raw as Record<string, unknown>).ump;
  if (what === "request body" && v !== undefined && v !== "0.1" && !(typeof v === "string" && /^1\.\d+$/.test(v))) {
    throw new MemoryError("invalid_record", `ump: unsupported version ${JSON.stringify(v)}, expected "1.0"`, { field: "ump" });
  }
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
