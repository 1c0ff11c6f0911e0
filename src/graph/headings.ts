/**
 * `part_of` edges from nested markdown headings (SPEC §2.6 edge source 3):
 * each heading is `part_of` its nearest enclosing heading (the closest
 * earlier heading of smaller depth). Heading text is cleaned to the
 * entity-name charset; headings that clean to nothing or exceed 100
 * characters are skipped and do not act as parents. To hang top-level
 * headings under the note itself, pass the title first as `{depth: 0, text: title}`.
 */
import { cleanEntityName } from "./validate.ts";

/** A heading as the markdown parser reports it. */
export interface Heading {
  depth: number;
  text: string;
}

/** `part_of` edges child → parent, in document order, without duplicates or self-edges. */
export function headingPartOf(headings: readonly Heading[]): { from: string; type: "part_of"; to: string }[] {
  const stack: { depth: number; name: string }[] = [];
  const out: { from: string; type: "part_of"; to: string }[] = [];
  const seen = new Set<string>();
  for (const h of headings) {
    const name = cleanEntityName(h.text.replace(/[*_`]/g, ""));
    if (name === null) continue;
    while (stack.length > 0 && stack[stack.length - 1].depth >= h.depth) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent !== undefined && parent.name.toLowerCase() !== name.toLowerCase()) {
      const key = `${name.toLowerCase()}\u0000${parent.name.toLowerCase()}`;
      if (!seen.has(key)) {
        seen.add(key);
        out.push({ from: name, type: "part_of", to: parent.name });
      }
    }
    stack.push({ depth: h.depth, name });
  }
  return out;
}
