/**
 * Inline relation annotations in markdown, `[[relation::entity]]` (SPEC
 * §2.6 edge source 1, the legacy form). The relation is normalised to the
 * relation-type rule ("Works At" → `works_at`, `ops:Owned-By` →
 * `ops:owned_by`); the entity is cleaned to the entity-name charset, and an
 * Obsidian-style display suffix (`[[uses::Redis|the cache]]`) is dropped.
 * Annotations that still break a rule are reported, never thrown, so one bad
 * link does not sink the note. The subject of each edge is the note itself;
 * the caller supplies it.
 */
import { cleanEntityName, normalizeRelationType } from "./validate.ts";

/** A valid annotation: relation type, target entity (display form), span of the whole `[[…]]`. */
export interface Annotation {
  type: string;
  to: string;
  span: [number, number];
}

/** An annotation that could not be used, with the spec code that names the broken rule. */
export interface InvalidAnnotation {
  raw: string;
  reason: "relation_invalid" | "name_invalid";
  span: [number, number];
}

/** What `extractAnnotations` found. */
export interface AnnotationResult {
  relations: Annotation[];
  invalid: InvalidAnnotation[];
}

/** Finds every `[[relation::entity]]` in text order; duplicates (same type and entity) keep the first. */
export function extractAnnotations(text: string): AnnotationResult {
  const relations: Annotation[] = [];
  const invalid: InvalidAnnotation[] = [];
  const seen = new Set<string>();
  for (const m of text.matchAll(/\[\[([^[\]\n]*?)::([^[\]\n]*?)\]\]/g)) {
    const span: [number, number] = [m.index, m.index + m[0].length];
    const type = normalizeRelationType(m[1]);
    if (type === null) {
      invalid.push({ raw: m[0], reason: "relation_invalid", span });
      continue;
    }
    const to = cleanEntityName(m[2].split("|")[0]);
    if (to === null) {
      invalid.push({ raw: m[0], reason: "name_invalid", span });
      continue;
    }
    const key = `${type}\u0000${to.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    relations.push({ type, to, span });
  }
  return { relations, invalid };
}
