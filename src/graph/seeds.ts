/**
 * Query-side inputs of the graph leg (SPEC §1 Retrieval pipeline step 6).
 * `matchEntityNames` finds the seed entities: the known entity names a query
 * mentions. The query is cut into words (cleaned
 * like entity names, a possessive `'s` dropped, lowercased), and word runs
 * of up to `maxWords` are looked up longest first, left to right, without
 * overlap. Case does not matter, so "who owns ledger" finds `ledger`. A lone
 * common function word never matches, even if such an entity exists.
 * `relationCues` finds the relation types a query evokes, from the linker's
 * own verb table ("Who built…" → `created`, "…on call for…" →
 * `on_call_for`), for `personalizedPageRank`'s `typeBoost`.
 */
import { VERB_PATTERNS } from "./patterns.ts";

const FUNCTION_WORDS = new Set(
  ("a an the of to in on at by for from with and or but is are was were be been do does did it its this that these those " +
    "who whom whose what which where when why how i we you he she they me us him her them my our your their").split(" "),
);

/** Options of `matchEntityNames`. */
export interface SeedOptions {
  /** Longest word run tried. Default 6. */
  maxWords?: number;
}

/** Normalised entity names found in `text`, in text order, each once; `isKnown` receives lowercased candidates. */
export function matchEntityNames(text: string, isKnown: (name: string) => boolean, opts: SeedOptions = {}): string[] {
  const maxWords = Math.max(1, opts.maxWords ?? 6);
  // Words of every script, as entity names are cleaned (validate.ts `cleanEntityName`).
  const words = text
    .normalize("NFC")
    .replace(/['’]s\b/g, "")
    .replace(/['’.](?=[\p{L}\p{N}])/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}_-]+/u)
    .map((w) => w.replace(/^[-_]+|[-_]+$/g, ""))
    .filter((w) => w.length > 0);
  const found: string[] = [];
  let i = 0;
  while (i < words.length) {
    let matched = 0;
    for (let n = Math.min(maxWords, words.length - i); n >= 1; n--) {
      if (n === 1 && FUNCTION_WORDS.has(words[i])) break;
      const candidate = words.slice(i, i + n).join(" ");
      if (candidate.length <= 100 && isKnown(candidate)) {
        if (!found.includes(candidate)) found.push(candidate);
        matched = n;
        break;
      }
    }
    i += Math.max(1, matched);
  }
  return found;
}

function stem(w: string): string {
  for (const suf of ["ing", "ed", "es", "s"]) if (w.endsWith(suf) && w.length - suf.length >= 3) return w.slice(0, -suf.length);
  return w;
}

const cueText = (t: string) => ` ${t.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w.length > 0).map(stem).join(" ")} `;

/**
 * Cue words per relation type: each table phrase without its auxiliary
 * ("is", "was", "is being"), leading article and trailing preposition
 * ("is on call for" → "on call", "was founded by" → "founded"), plus the
 * type name read the same way. Phrases that reduce to nothing (`is a`) give no cue.
 */
const CUES: readonly (readonly [string, string])[] = (() => {
  const out: [string, string][] = [];
  for (const row of VERB_PATTERNS) {
    for (const phrase of [...row.active, ...row.inverse, row.type.replace(/_/g, " ")]) {
      const core = phrase
        .replace(/^(?:is being|is|was) /, "")
        .replace(/^(?:a|an|the) /, "")
        .replace(/ (?:by|for|to|of|on|in|at)$/, "");
      if (core.length < 3 || ["is a", "is an"].includes(phrase)) continue;
      const cue = cueText(core);
      if (!out.some(([c, t]) => c === cue && t === row.type)) out.push([cue, row.type]);
    }
  }
  return out;
})();

// Longer cues match first and use up their words, so "on call" does not also cue `calls`.
const CUES_LONGEST_FIRST = CUES.map((c, i) => ({ cue: c[0], type: c[1], i })).sort((a, b) => b.cue.length - a.cue.length || a.i - b.i);
const TYPE_ORDER = VERB_PATTERNS.map((r) => r.type);

/** Relation types whose cue words occur in `text` (whole words, light stemming, longest cue first), in table order. */
export function relationCues(text: string): string[] {
  let q = cueText(text);
  const found = new Set<string>();
  for (const { cue, type } of CUES_LONGEST_FIRST) {
    if (!q.includes(cue)) continue;
    found.add(type);
    q = q.split(cue).join(" \u0000 ");
  }
  return TYPE_ORDER.filter((t) => found.has(t));
}
