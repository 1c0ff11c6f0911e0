/**
 * Taxonomy edges from markdown frontmatter (SPEC §2.6 edge source 2):
 * every tag gives `note tagged_with tag`, every alias gives
 * `alias alias_of note`. These two types weigh 0.1 in the graph leg
 * (SPEC §1 step 6). Tags lose a leading `#`, and hierarchical tags keep
 * their words (`team/platform` → "team platform"); the title is cut to
 * 100 characters at a word boundary. Accepts what YAML gives: an array, or
 * a comma-separated string; non-strings are ignored.
 */
import { cleanEntityName, truncateEntityName } from "./validate.ts";

/** An edge between two entity names (display form). */
export interface NamedEdge {
  from: string;
  type: string;
  to: string;
}

function list(v: unknown): string[] {
  if (typeof v === "string") return v.split(",");
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string");
  return [];
}

/** `tagged_with` and `alias_of` edges for one note; none when the title cleans to nothing. */
export function taxonomyEdges(title: string, tags: unknown, aliases: unknown): NamedEdge[] {
  const note = truncateEntityName(title);
  if (note === null) return [];
  const out: NamedEdge[] = [];
  const seen = new Set<string>();
  const push = (edge: NamedEdge, other: string) => {
    const key = `${edge.type}\u0000${other.toLowerCase()}`;
    if (other.toLowerCase() === note.toLowerCase() || seen.has(key)) return; // no self-edges, no repeats
    seen.add(key);
    out.push(edge);
  };
  for (const t of list(tags)) {
    const tag = cleanEntityName(t.trim().replace(/^#+/, ""));
    if (tag !== null) push({ from: note, type: "tagged_with", to: tag }, tag);
  }
  for (const a of list(aliases)) {
    const alias = cleanEntityName(a);
    if (alias !== null) push({ from: alias, type: "alias_of", to: note }, alias);
  }
  return out;
}
