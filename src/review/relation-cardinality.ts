/**
 * Which relation types hold several values at once, so that two objects for one subject are not a contradiction
 * (the consolidation planner's graph-conflict rule, `plan-consolidation.ts`). A team on call for two services, a
 * service using two databases, a person speaking two languages: none contradicts the other.
 *
 * A type is multi-valued when it is one of the linker's relations that naturally take several objects (SPEC §2.6
 * edge source 3, `src/graph/patterns.ts`), a taxonomy edge, or — for the client's own types — when the store already
 * shows it so: one chunk gives one subject two or more current objects of that type (the author listed several).
 * Everything else (`works_at`, `lives_in`, `located_in`, `reports_to`, `married_to`, …) is single-valued, and two
 * overlapping values from different chunks are proposed as `contradicts` for a human to review.
 */

/** Relation base types that take several objects by nature. */
export const MULTI_VALUED_RELATIONS: ReadonlySet<string> = new Set([
  // the linker's vocabulary (src/graph/patterns.ts) that is not functional
  "part_of", "member_of", "depends_on", "replaces", "is_a", "uses", "owns", "founded_by", "manages", "created", "maintains",
  "runs_on", "calls", "mentors", "on_call_for", "caused", "affected",
  // taxonomy edges from front matter (SPEC §2.6 edge source 2)
  "tagged_with", "alias_of",
  // common structured-ingest types that list
  "has", "includes", "contains", "related_to", "mentions", "knows", "speaks", "likes", "attended", "visited", "worked_on",
]);

/** The base of a possibly namespaced type (`team:on_call_for` → `on_call_for`). */
export function baseRelationType(type: string): string {
  const i = type.lastIndexOf(":");
  return i < 0 ? type : type.slice(i + 1);
}

/** True when `type` holds several values: built in, or `observed` (types the store shows listing several). */
export function isMultiValued(type: string, observed: ReadonlySet<string>): boolean {
  return MULTI_VALUED_RELATIONS.has(baseRelationType(type)) || observed.has(type);
}
