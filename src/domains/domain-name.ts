/**
 * Domain-name rule (SPEC §2.5): trim, lowercase, then `^[a-z0-9][a-z0-9_-]{0,62}$`. Written once as a schema
 * (`domainNameField`) that request bodies embed and `normalizeDomainName` applies (`domain_invalid`, SPEC §7).
 */
import { z } from "zod";
import { parseWith, specError } from "../core/schema.ts";

/** The reserved fallback domain. */
export const GLOBAL_DOMAIN = "global";

const DOMAIN_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/** A domain name carried by request field `field`: a string that matches SPEC §2.5 once trimmed and lower-cased. */
export function domainNameField(field = "domain") {
  return z
    .string({ error: specError("domain_invalid", `${field} must be a string`, { field }) })
    .transform((v) => v.trim().toLowerCase())
    .refine((n) => DOMAIN_RE.test(n), { error: specError("domain_invalid", `${field} must match ^[a-z0-9][a-z0-9_-]{0,62}$`, { field }) })
    .meta({ description: "`^[a-z0-9][a-z0-9_-]{0,62}$` after trimming and lower-casing (domain_invalid)", example: "work" });
}

// One schema per request field name (a handful of code constants).
const byField = new Map<string, ReturnType<typeof domainNameField>>();

/** Normalises a domain name or throws `domain_invalid` naming `field` (the request field that carried it). */
export function normalizeDomainName(v: unknown, field = "domain"): string {
  let schema = byField.get(field);
  if (!schema) byField.set(field, (schema = domainNameField(field)));
  return parseWith(schema, v);
}
