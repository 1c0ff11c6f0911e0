/**
 * The entity names a chunk's text mentions, as store keys (lowercased), for
 * linking chunks to entities (SPEC §1 step 6: PageRank scores over entities
 * are mapped back to the chunks that mention them). Mentions are the
 * linker's (`mentions.ts`: capitalised phrases and backticked identifiers);
 * a multi-word mention also yields its contiguous sub-phrases, so "Acme
 * Corp" links a chunk to an entity named "Acme". Only names that already
 * are entities of the domain are linked; the caller resolves them.
 */
import { findMentions } from "./mentions.ts";

/** At most this many names per text (a guard for huge chunks). */
export const MAX_MENTION_NAMES = 500;

/** Lowercased candidate entity names mentioned in `text`, in first-seen order. */
export function mentionNames(text: string): string[] {
  const out = new Set<string>();
  for (const m of findMentions(text)) {
    const words = m.name.toLowerCase().split(" ");
    for (let len = words.length; len >= 1; len--) {
      for (let i = 0; i + len <= words.length; i++) out.add(words.slice(i, i + len).join(" "));
    }
    if (out.size >= MAX_MENTION_NAMES) break;
  }
  return [...out].slice(0, MAX_MENTION_NAMES);
}
