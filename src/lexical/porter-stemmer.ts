/**
 * The Porter stemmer (M. F. Porter, "An algorithm for suffix stripping",
 * Program 14(3), 1980), written from the published rules and following the
 * author's reference C implementation, including its two documented
 * departures from the paper (step 2 maps `-bli` to `-ble` and `-logi` to
 * `-log`). This is the stemmer behind SQLite FTS5 `porter` and Lucene's
 * `PorterStemFilter`, so BM25 figures stay comparable with published ones.
 * Only lowercase ASCII words are stemmed; anything else is returned as is.
 */

const ASCII_WORD = /^[a-z]+$/;

/** Stems one lowercase word; words of two letters or fewer and non-ASCII words are returned unchanged. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = step2(w);
  w = step3(w);
  w = step4(w);
  w = step5(w);
  return w;
}

/** True when w[i] is a consonant in Porter's sense (`y` after a consonant is a vowel). */
function cons(w: string, i: number): boolean {
  switch (w.charCodeAt(i)) {
    case 97: // a
    case 101: // e
    case 105: // i
    case 111: // o
    case 117: // u
      return false;
    case 121: // y
      return i === 0 ? true : !cons(w, i - 1);
    default:
      return true;
  }
}

/** Porter's m: the number of vowel-consonant sequences in w[0, end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && cons(w, i)) i++;
  while (i < end) {
    while (i < end && !cons(w, i)) i++;
    if (i >= end) return n;
    n++;
    while (i < end && cons(w, i)) i++;
  }
  return n;
}

/** True when w[0, end) contains a vowel. */
function vowelInStem(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!cons(w, i)) return true;
  return false;
}

/** True when w ends, at index j, with a double consonant. */
function doubleCons(w: string, j: number): boolean {
  return j >= 1 && w[j] === w[j - 1] && cons(w, j);
}

/** True when w[i-2..i] is consonant-vowel-consonant and w[i] is not w, x or y. */
function cvc(w: string, i: number): boolean {
  if (i < 2 || !cons(w, i) || cons(w, i - 1) || !cons(w, i - 2)) return false;
  const c = w[i];
  return c !== "w" && c !== "x" && c !== "y";
}

/** Replaces `suffix` by `repl` when the remaining stem has measure > min; first matching suffix decides. */
function replaceRule(w: string, rules: ReadonlyArray<readonly [string, string]>, min: number): string {
  for (const [suffix, repl] of rules) {
    if (w.endsWith(suffix)) {
      const stemEnd = w.length - suffix.length;
      return measure(w, stemEnd) > min ? w.slice(0, stemEnd) + repl : w;
    }
  }
  return w;
}

function step1ab(w: string): string {
  if (w.endsWith("s")) {
    if (w.endsWith("sses")) w = w.slice(0, -2);
    else if (w.endsWith("ies")) w = w.slice(0, -2);
    else if (!w.endsWith("ss")) w = w.slice(0, -1);
  }
  if (w.endsWith("eed")) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let stemEnd = -1;
  if (w.endsWith("ed")) stemEnd = w.length - 2;
  else if (w.endsWith("ing")) stemEnd = w.length - 3;
  if (stemEnd < 0 || !vowelInStem(w, stemEnd)) return w;
  w = w.slice(0, stemEnd);
  if (w.endsWith("at") || w.endsWith("bl") || w.endsWith("iz")) return w + "e";
  const last = w.length - 1;
  if (doubleCons(w, last)) {
    const c = w[last];
    return c === "l" || c === "s" || c === "z" ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && cvc(w, last)) return w + "e";
  return w;
}

function step1c(w: string): string {
  if (w.endsWith("y") && vowelInStem(w, w.length - 1)) return w.slice(0, -1) + "i";
  return w;
}

const STEP2: ReadonlyArray<readonly [string, string]> = [
  ["ational", "ate"], ["tional", "tion"], ["enci", "ence"], ["anci", "ance"], ["izer", "ize"],
  ["bli", "ble"], ["alli", "al"], ["entli", "ent"], ["eli", "e"], ["ousli", "ous"],
  ["ization", "ize"], ["ation", "ate"], ["ator", "ate"], ["alism", "al"], ["iveness", "ive"],
  ["fulness", "ful"], ["ousness", "ous"], ["aliti", "al"], ["iviti", "ive"], ["biliti", "ble"],
  ["logi", "log"],
];

function step2(w: string): string {
  return replaceRule(w, STEP2, 0);
}

const STEP3: ReadonlyArray<readonly [string, string]> = [
  ["icate", "ic"], ["ative", ""], ["alize", "al"], ["iciti", "ic"], ["ical", "ic"], ["ful", ""], ["ness", ""],
];

function step3(w: string): string {
  return replaceRule(w, STEP3, 0);
}

// Ordered so that a longer suffix is tried before a shorter one it ends with
// (`ement` before `ment` before `ent`), as in the reference implementation.
const STEP4 = [
  "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
  "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
];

function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!w.endsWith(suffix)) continue;
    const stemEnd = w.length - suffix.length;
    if (suffix === "ion") {
      const before = w[stemEnd - 1];
      if (before !== "s" && before !== "t") continue; // falls through to `ou`, as in the C code
    }
    return measure(w, stemEnd) > 1 ? w.slice(0, stemEnd) : w;
  }
  return w;
}

function step5(w: string): string {
  if (w.endsWith("e")) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !cvc(w, w.length - 2))) w = w.slice(0, -1);
  }
  if (w.endsWith("ll") && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}
