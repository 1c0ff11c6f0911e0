/**
 * Basic Memory's markdown forms (issue 22 item 4), read beside the SPEC §2.6
 * `[[relation::entity]]` annotation:
 *
 * - a relation list item, `- relation_type [[Target]]` (an optional trailing
 *   context such as `(since 2019)` is ignored), gives `note -relation_type->
 *   Target`;
 * - an observation, `- [category] text #tag`, tags its note with each
 *   `#tag` (the category is a label of the line, not an entity).
 *
 * Lines inside fenced code are not read. Relation types are normalised as
 * hand-written annotations are (`normalizeRelationType`); a line whose type
 * or target does not clean to a valid name gives nothing.
 */
import { cleanEntityName, normalizeRelationType } from "./validate.ts";

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm;
const blank = (m: string) => m.replace(/[^\n]/g, " ");
const RELATION = /^\s{0,3}[-*+]\s+([A-Za-z][A-Za-z0-9_ :-]{0,63}?)\s+\[\[([^[\]|#\n]{1,200})(?:[|#][^[\]\n]*)?\]\]\s*(?:\(.*\))?\s*$/;
// `- [ ]` and `- [x]` are task items, not categories: a category has two or more characters and a letter.
const OBSERVATION = /^\s{0,3}[-*+]\s+\[(?!\[)([^[\]\n]{2,64})\]\s+(.+)$/;
const TAG = /(?:^|\s)#([\p{L}\p{N}][\p{L}\p{N}_/-]{0,63})/gu;

/** One relation list item. */
export interface RelationLine {
  type: string;
  to: string;
}

/** Relation list items and observation tags of a text, in line order. */
export function readVaultLines(text: string): { relations: RelationLine[]; tags: string[] } {
  const relations: RelationLine[] = [];
  const tags: string[] = [];
  for (const line of text.replace(FENCE, blank).split("\n")) {
    const r = RELATION.exec(line);
    if (r) {
      const type = normalizeRelationType(r[1]);
      const to = cleanEntityName(r[2].trim());
      if (type !== null && to !== null) relations.push({ type, to });
      continue;
    }
    const o = OBSERVATION.exec(line);
    if (o && /\p{L}/u.test(o[1])) {
      for (const m of o[2].matchAll(TAG)) {
        const tag = cleanEntityName(m[1]);
        if (tag !== null && !tags.includes(tag)) tags.push(tag);
      }
    }
  }
  return { relations, tags };
}
