/**
 * The deterministic linker (SPEC §2.6 edge sources 1–3): verb-pattern
 * extraction from prose, plus the re-exported helpers for the other
 * markdown edge sources (`headingPartOf`, `extractAnnotations`,
 * `taxonomyEdges`). No model, no randomness: the same text always gives the
 * same edges in the same order.
 *
 * How `extractRelations` reads a text: find the entity mentions
 * (`mentions.ts`), then look at the text between each pair of neighbouring
 * mentions. If it is exactly a phrase of the pattern table (`patterns.ts`)
 * the two are related; if it is a list joiner ("and", ", and", ", … and")
 * the mentions form a list and the relation applies to every member
 * ("Ledger uses Postgres and Redis"; "Priya and Omar built Ledger"). When a
 * list sits between two verbs, its last member starts the next clause
 * ("Priya built Ledger and Omar maintains Vault"). Anything else (negation,
 * extra words, sentence punctuation, a blank line or a heading in between)
 * relates nothing.
 */
import { findMentions, maskNonProse, type Mention } from "./mentions.ts";
import { ADVERBS, LIST_JOINERS, type PatternHit, PHRASES } from "./patterns.ts";

export { extractAnnotations } from "./annotations.ts";
export type { Annotation, AnnotationResult, InvalidAnnotation } from "./annotations.ts";
export { headingPartOf } from "./headings.ts";
export type { Heading } from "./headings.ts";
export { taxonomyEdges } from "./taxonomy.ts";
export type { NamedEdge } from "./taxonomy.ts";
export { findMentions } from "./mentions.ts";
export type { Mention } from "./mentions.ts";

/** One extracted relation: display names, type, and the span from the first mention's start to the second's end. */
export interface LinkedRelation {
  from: string;
  type: string;
  to: string;
  span: [number, number];
}

type Gap = { kind: "verb"; hit: PatternHit } | { kind: "join"; and: boolean } | { kind: "none" };

/** Extracts verb-pattern relations from prose; first occurrence of each (from, type, to) wins, self-relations are dropped. */
export function extractRelations(text: string): LinkedRelation[] {
  const src = maskNonProse(text);
  const ms = findMentions(text);
  if (ms.length < 2) return [];
  const gaps: Gap[] = [];
  for (let i = 0; i + 1 < ms.length; i++) gaps.push(classify(src, ms[i], ms[i + 1]));

  // Units: lists of mentions joined by list joiners, cut after the last "and"-type joiner of a run.
  const units: Mention[][] = [];
  const after: Gap[] = []; // gap following each unit
  let i = 0;
  while (i < ms.length) {
    let j = i;
    while (j < gaps.length && gaps[j].kind === "join") j++;
    let last = -1;
    for (let k = i; k < j; k++) if ((gaps[k] as { and?: boolean }).and === true) last = k;
    const end = last >= 0 ? last + 1 : i; // index of the unit's last mention
    units.push(ms.slice(i, end + 1));
    after.push(end < gaps.length ? gaps[end] : { kind: "none" });
    i = end + 1;
  }

  const out: LinkedRelation[] = [];
  const seen = new Set<string>();
  for (let u = 0; u + 1 < units.length; u++) {
    const gap = after[u];
    if (gap.kind !== "verb") continue;
    // A list between two verbs: its last member is the next clause's subject, not an object.
    const subjects = u > 0 && after[u - 1].kind === "verb" && units[u].length > 1 ? units[u].slice(-1) : units[u];
    const nextIsVerb = after[u + 1]?.kind === "verb";
    const objects = nextIsVerb && units[u + 1].length > 1 ? units[u + 1].slice(0, -1) : units[u + 1];
    if (gap.hit.objectEndsClause && (objects.length !== 1 || !endsClause(src, objects[0].end))) continue;
    for (const s of subjects) {
      for (const o of objects) {
        const [from, to] = gap.hit.inverse ? [o.name, s.name] : [s.name, o.name];
        const key = `${from.toLowerCase()}\u0000${gap.hit.type}\u0000${to.toLowerCase()}`;
        if (from.toLowerCase() === to.toLowerCase() || seen.has(key)) continue;
        seen.add(key);
        out.push({ from, type: gap.hit.type, to, span: [s.start, o.end] });
      }
    }
  }
  return out;
}

function classify(src: string, a: Mention, b: Mention): Gap {
  const raw = src.slice(a.end, b.start);
  if (!sameClauseAcrossLines(src, a.start, raw)) return { kind: "none" };
  const s = raw.replace(/\*+/g, " ").toLowerCase().replace(/\s+/g, " ").trim();
  if (LIST_JOINERS.includes(s)) return { kind: "join", and: s !== "," };
  let t = s;
  for (const adv of ADVERBS) {
    if (t.startsWith(adv + " ")) {
      t = t.slice(adv.length + 1);
      break;
    }
  }
  const hit = PHRASES.get(t) ?? PHRASES.get(t.replace(/ (?:the|a|an)$/, ""));
  return hit === undefined ? { kind: "none" } : { kind: "verb", hit };
}

/**
 * A single soft line break may sit inside a sentence (hard-wrapped prose),
 * but not a blank line, a heading line, or a new list item, quote or table row.
 */
function sameClauseAcrossLines(src: string, aStart: number, between: string): boolean {
  const nl = between.indexOf("\n");
  if (nl === -1) return true;
  if (between.indexOf("\n", nl + 1) !== -1) return false;
  const lineStart = src.lastIndexOf("\n", aStart) + 1;
  if (/^\s*#/.test(src.slice(lineStart, aStart + 1))) return false;
  return !/^\s*(?:[#>|*+-]|\d+[.)])/.test(between.slice(nl + 1));
}

function endsClause(src: string, end: number): boolean {
  const rest = /^[ \t*]*(.)?/.exec(src.slice(end, end + 16));
  const c = rest?.[1];
  return c === undefined || /[.,;:!?)\]\n]/.test(c);
}
