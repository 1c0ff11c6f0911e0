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
// Inflections seen in ordinary prose, kept as written (no pointless rewrite).
const INFLECTED = [
  "responses", "responds", "systems", "reveals", "repeats", "restriction", "displays", "explains", "guideline",
  "direction", "command", "outputs", "translated", "translates", "summarized", "summarizes", "summarised",
  "summarises", "secrets", "ignored", "ignores", "prompted", "accessed", "accesses", "overrides", "granted",
];
// Extra words a joined run may split into (besides the anchors).
const GLUE = [
  "me", "my", "to", "of", "in", "on", "is", "it", "an", "and", "or", "as", "be", "do", "no", "not", "new", "any", "this",
  "that", "these", "act", "mode", "with", "just", "before", "earlier", "rule", "instruct", "here", "given", "above",
  "hidden", "entire", "full", "first", "initial", "follow", "stop", "message", "messages", "code", "word", "phrase",
];

const shortByLength: (string[] | undefined)[] = [];
for (const w of SHORT) (shortByLength[w.length] ??= []).push(w);
const INFLECTED_SET = new Set(INFLECTED);
// Candidates for one edit: anchors indexed by (length, first letter). Typos rarely hit the first letter, and this
// keeps the per-word cost to three array reads (the screen runs on every write).
// Flat tables indexed by length * 26 + letter (array reads, not map lookups: this runs once per word of every write).
const MAX_LEN = 17;
const byFirst: (string[] | undefined)[] = new Array((MAX_LEN + 2) * 26);
const push = (m: (string[] | undefined)[], k: number, w: string) => (m[k] ??= []).push(w);
for (const w of [...LONG, ...INFLECTED]) {
  push(byFirst, w.length * 26 + w.charCodeAt(0) - 97, w);
}

// A trie over a-z as flat arrays: node k's child for letter c is NEXT[k * 26 + c] (0 = none; node 0 is the root).
const NEXT: number[] = [0];
const END: number[] = [0]; // 0 no word ends here, 1 a word, 2 a long anchor
let nodes = 1;
for (const w of [...LONG, ...SHORT, ...GLUE]) {
  let k = 0;
  for (let i = 0; i < w.length; i++) {
    const at = k * 26 + w.charCodeAt(i) - 97;
    if (!NEXT[at]) {
      NEXT[at] = nodes;
      END[nodes++] = 0;
    }
    k = NEXT[at];
  }
  END[k] = Math.max(END[k], LONG.includes(w) ? 2 : 1);
}
const child = (k: number, c: number) => NEXT[k * 26 + c - 97] ?? 0;

const HYPHEN = /(?<=[a-z])-(?=[a-z])/g;
const YOUR = /(?<![a-z])(?:yourr|yuor|yor|yoru|ypur|yiur|yur|ur|youre)(?![a-z])/;
const YOUR_ALL = new RegExp(YOUR.source, "g");

// Whether t[ws..we) and a[as..] are equal from the given offsets to their ends (lengths already line up).
function tailEq(t: string, i: number, we: number, a: string, j: number): boolean {
  if (we - i !== a.length - j) return false;
  for (; i < we; i++, j++) if (t.charCodeAt(i) !== a.charCodeAt(j)) return false;
  return true;
}

/** 0 when the word t[ws..we) equals `a`, 1 when it is one Damerau edit away, -1 otherwise (lengths within one). */
function editsTo(t: string, ws: number, we: number, a: string): number {
  const n = we - ws;
  const m = a.length;
  let i = 0;
  while (i < n && i < m && t.charCodeAt(ws + i) === a.charCodeAt(i)) i++;
  if (n === m) {
    if (i === n) return 0;
    if (tailEq(t, ws + i + 1, we, a, i + 1)) return 1; // substitution
    const swap = i + 1 < n && t.charCodeAt(ws + i) === a.charCodeAt(i + 1) && t.charCodeAt(ws + i + 1) === a.charCodeAt(i) && tailEq(t, ws + i + 2, we, a, i + 2);
    return swap ? 1 : -1;
  }
  if (n === m + 1) return tailEq(t, ws + i + 1, we, a, i) ? 1 : -1; // an extra letter in the word
  return m === n + 1 && tailEq(t, ws + i, we, a, i + 1) ? 1 : -1; // a letter missing from the word
}

/** The anchor the word t[ws..we) stands for, or undefined to keep it. */
function correct(t: string, ws: number, we: number): string | undefined {
  const n = we - ws;
  if (n < 5 || n > 16) return undefined;
  const first = t.charCodeAt(ws);
  const f = first - 97;
  let found: string | undefined;
  for (let d = -1; d <= 1; d++) {
    const L = n + d;
    const fl = byFirst[L * 26 + f] ?? NONE;
    for (let x = 0; x < fl.length; x++) {
      const a = fl[x];
      const e = editsTo(t, ws, we, a);
      if (e === 0) return undefined; // the word is an anchor (or a listed inflection)
      if (e === 1 && (found === undefined || INFLECTED_SET.has(found))) found = a;
    }
  }
  if (found !== undefined) return found;
  // A short anchor with one letter doubled: the word is the anchor with one extra letter.
  for (const a of shortByLength[n - 1] ?? NONE) if (a.charCodeAt(0) === first && editsTo(t, ws, we, a) === 1 && hasDouble(t, ws, we)) return a;
  return undefined;
}
const NONE: string[] = [];

function hasDouble(t: string, ws: number, we: number): boolean {
  for (let i = ws + 1; i < we; i++) if (t.charCodeAt(i) === t.charCodeAt(i - 1)) return true;
  return false;
}

/** Splits the letter run t[ws..we) wholly into known words when one of them is a long anchor, else undefined. */
function split(t: string, ws: number, we: number, from: Int16Array): string | undefined {
  const n = we - ws;
  if (n > 48) return undefined;
  // Most words have no known word as a proper prefix: stop before allocating.
  let k = 0;
  let any = false;
  for (let e = ws; e < we - 2; e++) {
    k = child(k, t.charCodeAt(e));
    if (k === 0) break;
    if (END[k] && e > ws) {
      any = true;
      break;
    }
  }
  if (!any) return undefined;
  // Breadth over positions: from each reachable start, walk the trie; keep the first way found to each end.
  // from[e] = start of the last word ending at e, + 1 (0: unreachable), negated when a long anchor lies on the way.
  from.fill(0, 0, n + 1);
  from[0] = 1;
  for (let s = 0; s < n; s++) {
    if (from[s] === 0) continue;
    k = 0;
    for (let e = s; e < n; e++) {
      k = child(k, t.charCodeAt(ws + e));
      if (k === 0) break;
      if (END[k] && e + 1 - s >= 2 && from[e + 1] === 0 && !(s === 0 && e + 1 === n)) {
        from[e + 1] = (from[s] < 0 || END[k] === 2 ? -1 : 1) * (s + 1);
      }
    }
  }
  if (from[n] >= 0) return undefined; // unreachable, or no long anchor on the way
  const parts: string[] = [];
  for (let e = n; e > 0; e = Math.abs(from[e]) - 1) parts.unshift(t.slice(ws + Math.abs(from[e]) - 1, ws + e));
  return parts.join(" ");
}

const isLetter = (c: number) => c >= 97 && c <= 122;
const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
// ASCII punctuation or a space: what may stand between spelled letters (a line break may not).
const isSep = (c: number) => c < 128 && c !== 10 && !isWord(c);
const SPELLED_MIN = 4;
const SEP_MAX = 4;

/** Where a run of at least four single letters, each set apart by one to four separators, ends (0 when there is none). */
function spelledEnd(t: string, p: number): number {
  let n = 1;
  let end = p + 1;
  for (;;) {
    let s = end;
    while (s < t.length && s - end < SEP_MAX && isSep(t.charCodeAt(s))) s++;
    if (s === end || s >= t.length || !isLetter(t.charCodeAt(s)) || (s + 1 < t.length && isWord(t.charCodeAt(s + 1)))) break;
    n++;
    end = s + 1;
  }
  return n >= SPELLED_MIN ? end : 0;
}

/** The canonical view of folded text (lowercase, diacritics gone); returns the input itself when nothing changes. */
export function canonicalForScreen(folded: string): string {
  let t = folded.includes("-") ? folded.replace(HYPHEN, " ") : folded;
  if (YOUR.test(t)) t = t.replace(YOUR_ALL, "your");
  let out = "";
  let last = 0;
  const scratch = new Int16Array(50);
  let p = 0;
  const len = t.length;
  while (p < len) {
    const c = t.charCodeAt(p);
    if (!isLetter(c)) {
      p++;
      continue;
    }
    let q = p + 1;
    let triple = false;
    while (q < len && isLetter(t.charCodeAt(q))) {
      if (q - p >= 2 && t.charCodeAt(q) === t.charCodeAt(q - 1) && t.charCodeAt(q) === t.charCodeAt(q - 2)) triple = true;
      q++;
    }
    // A word glued to digits, capitals or underscores is an identifier: leave it.
    if ((p > 0 && isWord(t.charCodeAt(p - 1))) || (q < len && isWord(t.charCodeAt(q)))) {
      p = q;
      continue;
    }
    // Letters spelled one by one ("i g n o r e", "r.e.v.e.a.l", `["a","c","c"]`) are read as the word they spell.
    if (q - p === 1) {
      const end = spelledEnd(t, p);
      if (end > 0) {
        let word = "";
        for (let i = p; i < end; i++) if (isLetter(t.charCodeAt(i))) word += t[i];
        out += t.slice(last, p) + (correct(word, 0, word.length) ?? split(word, 0, word.length, scratch) ?? word);
        last = p = end;
        continue;
      }
    }
    // A run of three or more of one letter counts as two ("accesss", "yourrr").
    const src = triple ? t.slice(p, q).replace(/([a-z])\1\1+/g, "$1$1") : t;
    const ws = triple ? 0 : p;
    const we = triple ? src.length : q;
    let fixed = correct(src, ws, we) ?? (we - ws >= 7 ? split(src, ws, we, scratch) : undefined);
    if (fixed === undefined && triple) fixed = src;
    if (fixed !== undefined) {
      out += t.slice(last, p) + fixed;
      last = q;
    }
    p = q;
  }
  return last === 0 ? t : out + t.slice(last);
}
