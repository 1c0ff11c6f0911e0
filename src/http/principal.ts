/**
 * Reads the authenticated principal from the Hono context (set by the auth
 * middleware under the key `principal`). Until a principal is present, the
 * read seam redacts (no `pii:read`).
 */
import type { Context } from "hono";

/** True when the caller holds `pii:read` (SPEC §1 read seam). */
export function piiReadOf(c: Context): boolean {
  const p = (c.get as (k: string) => unknown)("principal") as { roles?: string[]; permissions?: string[] } | undefined;
  return Boolean(p && (p.roles?.includes("pii:read") || p.permissions?.includes("pii:read")));
}
