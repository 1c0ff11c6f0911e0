/** Domain-name rule (SPEC §2.5): trim, lowercase, then `^[a-z0-9][a-z0-9_-]{0,62}$`. */
import { MemoryError } from "../core/errors.ts";

/** The reserved fallback domain. */
export const GLOBAL_DOMAIN = "global";

const DOMAIN_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** Normalises a domain name or throws `domain_invalid` naming `field` (the request field that carried it). */
export function normalizeDomainName(v: unknown, field = "domain"): string {
  if (typeof v !== "string") throw new MemoryError("domain_invalid", `${field} must be a string`, { field });
  const n = v.trim().toLowerCase();
  if (!DOMAIN_RE.test(n)) throw new MemoryError("domain_invalid", `${field} must match ^[a-z0-9][a-z0-9_-]{0,62}$`, { field });
  return n;
}
