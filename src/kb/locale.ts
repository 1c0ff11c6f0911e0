/**
 * Locale tags for KCS articles and translations (SPEC §4.11 `/kcs/translate`
 * leaves the format "not shown"). x-cairn-choice: a BCP-47-ish pattern:
 * a 2–3 letter language, then optional script (4 letters), region (2
 * letters or 3 digits) and variants, joined by `-`; stored in canonical
 * case (`pt-BR`, `zh-Hant-TW`). Anything else is 400 `locale_invalid`.
 */
import { z } from "zod";
import { MemoryError } from "../core/errors.ts";
import { specError } from "../core/schema.ts";

/** The source locale of an article filed by a capture approval. */
export const DEFAULT_LOCALE = "en";

const PATTERN = /^[A-Za-z]{2,3}(-[A-Za-z]{4})?(-(?:[A-Za-z]{2}|[0-9]{3}))?(-(?:[A-Za-z0-9]{5,8}|[0-9][A-Za-z0-9]{3}))*$/;

/** Canonical case for a tag: language lower, script title, region upper. */
function canonical(tag: string): string {
  return tag.split("-").map((p, i) => {
    if (i === 0) return p.toLowerCase();
    if (p.length === 4 && /^[A-Za-z]+$/.test(p)) return p[0].toUpperCase() + p.slice(1).toLowerCase();
    if (p.length === 2 || (p.length === 3 && /^[0-9]+$/.test(p))) return p.toUpperCase();
    return p.toLowerCase();
  }).join("-");
}

/** True for a well-formed tag. */
export function isLocale(v: unknown): v is string {
  return typeof v === "string" && v.length <= 35 && PATTERN.test(v);
}

/** Validates and canonicalises a locale (400 `locale_invalid` naming `field`). */
export function parseLocale(v: unknown, field = "locale"): string {
  if (!isLocale(v)) {
    throw new MemoryError("locale_invalid", `${field} must be a BCP-47 language tag such as "de" or "pt-BR"`, { field, pattern: PATTERN.source });
  }
  return canonical(v);
}

/** A locale carried by request field `field`, as a schema (400 `locale_invalid`); parsed to canonical case. */
export function localeField(field = "locale") {
  const e = specError("locale_invalid", `${field} must be a BCP-47 language tag such as "de" or "pt-BR"`, { field, pattern: PATTERN.source });
  return z.string({ error: e }).refine(isLocale, { error: e }).transform(canonical).meta({ example: "de", description: "BCP-47 language tag (locale_invalid)" });
}
