/**
 * The canonical view the phrase rules read (issue 26: robust matching).
 * It starts from the folded view (`_screen-fold.ts`) and undoes the cheap
 * evasions of a word filter, so one set of rules sees "outputt yourr
 * previouss instructionss", "output-your-previous-instructions" and
 * "ignoreallpreviousinstructions" as the plain phrase:
 *
 * 1. a hyphen between two letters becomes a space;
 * 2. a run of three or more of one letter becomes two;
 * 3. common misspellings of "your" become "your";
 * 4. a word one edit (insert, delete, substitute, swap) away from an anchor
 *    word of six or more letters becomes the anchor; a word one doubled
 *    letter away from a shorter anchor does too;
 * 5. a run of letters that splits wholly into known words, at least one of
 *    them a long anchor, is split.
 *
 * Only the anchor words of the attack families are corrected, so ordinary
 * prose keeps its words; the cost is one walk over the letters and a few
 * bounded comparisons per word.
 */

// Long anchors: one edit of any kind is tolerated. Inflections the rules name are listed so they stay as written.
const LONG = [
  "ignore", "ignoring", "disregard", "disregarding", "forget", "forgetting", "previous", "previously", "instruction",
  "instructions", "prompt", "prompts", "system", "reveal", "repeat", "output", "password", "passcode", "passphrase",
  "secret", "granted", "access", "guidelines", "directions", "directives", "everything", "summarize", "summarise",
  "translate", "original", "initial", "verbatim", "respond", "response", "pretend", "restrictions", "override",
  "bypass", "preceding", "display", "nothing", "programming", "reprogrammed", "authorization", "authorisation",
  "commands", "anything", "beginning", "explain", "reformat", "rewrite",
];
// Short anchors: only a doubled letter is undone ("yourr", "rulles", "onlyy").
const SHORT = [
  "your", "rules", "above", "prior", "print", "tell", "show", "say", "all", "the", "text", "only", "else", "reply",
  "begin", "start", "what", "are", "from", "now", "you", "write", "list", "give", "words", "role",
];
// Extra words a joined run may split into (besides the anchors).
const GLUE = [
  "me", "my", "to", "of", "in", "on", "is", "it", "an", "and", "or", "as", "be", "do", "no", "not", "new", "any", "this",
  "that", "these", "act", "mode", "with", "just", "before", "earlier", "rule", "instruct", "here", "given", "above",
  "hidden", "entire", "full", "first", "initial", "follow", "stop", "message", "messages", "code", "word", "phrase",
];

const LONG_SET = new Set(LONG);
const SHORT_SET = new Set(SHORT);
const ANCHOR_SET = new Set([...LONG, ...SHORT]);
const byLength = new Map<number, string[]>();
for (const w of LONG) byLength.set(w.length, [...(byLength.get(w.length) ?? []), w]);
const shortByLength = new Map<number, string[]>();
for (const w of SHORT) shortByLength.set(w.length, [...(shortByLength.get(w.length) ?? []), w]);

interface Trie { next: Map<number, Trie>; end: boolean; long: boolean }
const trie: Trie = { next: new Map(), end: false, long: false };
for (const w of [...LONG, ...SHORT, ...GLUE]) {
  let n = trie;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    let m = n.next.get(c);
    if (!m) n.next.set(c, (m = { next: new Map(), end: false, long: false }));
    n = m;
  }
  n.end = true;
  n.long ||= LONG_SET.has(w);
}

const YOUR = /(?<![a-z])(?:yourr|yuor|yor|yoru|ypur|yiur|yur|ur|youre)(?![a-z])/g;

/** True when `w` is within one Damerau edit of `a` (lengths differ by at most one). */
function oneEdit(w: string, a: string): boolean {
  const n = w.length;
  const m = a.length;
  let i = 0;
  while (i < n && i < m && w.charCodeAt(i) === a.charCodeAt(i)) i++;
  if (n === m) {
    if (i === n) return true;
    // substitution or adjacent swap
    if (w.slice(i + 1) === a.slice(i + 1)) return true;
    return i + 1 < n && w[i] === a[i + 1] && w[i + 1] === a[i] && w.slice(i + 2) === a.slice(i + 2);
  }
  if (n === m + 1) return w.slice(i + 1) === a.slice(i); // an extra letter in w
  if (m === n + 1) return w.slice(i) === a.slice(i + 1); // a letter missing from w
  return false;
}

/** The anchor a word stands for, or undefined to keep it. */
function correct(w: string): string | undefined {
  if (ANCHOR_SET.has(w) || w.length < 4) return undefined;
  for (const d of [0, -1, 1]) {
    const list = byLength.get(w.length + d);
    if (!list) continue;
    for (const a of list) if ((a.charCodeAt(0) === w.charCodeAt(0) || a.charCodeAt(1) === w.charCodeAt(1)) && oneEdit(w, a)) return a;
  }
  // A short anchor with one letter doubled.
  const list = shortByLength.get(w.length - 1);
  if (list) {
    for (let i = 1; i < w.length; i++) {
      if (w[i] === w[i - 1]) {
        const a = w.slice(0, i) + w.slice(i + 1);
        if (SHORT_SET.has(a)) return a;
      }
    }
  }
  return undefined;
}

/** Splits a letter run wholly into known words when one of them is a long anchor, else undefined. */
function split(w: string): string | undefined {
  // Breadth over positions: from each reachable start, walk the trie; keep the first way found to each end.
  const from: Int16Array = new Int16Array(w.length + 1).fill(-1);
  const strong = new Uint8Array(w.length + 1);
  from[0] = 0;
  for (let s = 0; s < w.length; s++) {
    if (from[s] < 0) continue;
    let n: Trie | undefined = trie;
    for (let e = s; e < w.length; e++) {
      n = n.next.get(w.charCodeAt(e));
      if (!n) break;
      if (n.end && e + 1 - s >= 2 && from[e + 1] < 0 && !(s === 0 && e + 1 === w.length)) {
        from[e + 1] = s;
        strong[e + 1] = strong[s] | (n.long ? 1 : 0);
      }
    }
  }
  if (from[w.length] < 0 || !strong[w.length]) return undefined;
  const parts: string[] = [];
  for (let e = w.length; e > 0; e = from[e]) parts.unshift(w.slice(from[e], e));
  return parts.join(" ");
}

const isLetter = (c: number) => c >= 97 && c <= 122;

/** The canonical view of folded text (lowercase, diacritics gone); returns the input itself when nothing changes. */
export function canonicalForScreen(folded: string): string {
  let t = folded.replace(/(?<=[a-z])-(?=[a-z])/g, " ").replace(/([a-z])\1\1+/g, "$1$1");
  YOUR.lastIndex = 0;
  if (YOUR.test(t)) t = t.replace(YOUR, "your");
  let out = "";
  let last = 0;
  for (let p = 0; p < t.length; ) {
    if (!isLetter(t.charCodeAt(p)) || (p > 0 && /[\w]/.test(t[p - 1]))) {
      p++;
      continue;
    }
    let q = p;
    while (q < t.length && isLetter(t.charCodeAt(q))) q++;
    // A word glued to digits or underscores is an identifier: leave it.
    if (q < t.length && /[\w]/.test(t[q])) {
      p = q;
      continue;
    }
    const w = t.slice(p, q);
    const fixed = correct(w) ?? (w.length >= 7 && !ANCHOR_SET.has(w) ? split(w) : undefined);
    if (fixed !== undefined) {
      out += t.slice(last, p) + fixed;
      last = q;
    }
    p = q;
  }
  return last === 0 ? t : out + t.slice(last);
}
