/**
 * The deterministic lexical analyzer shared by every lexical component (the
 * BM25 index, the Orama components, and later the reranker and PRF): NFKC
 * and Latin diacritic folding, Unicode word split, English stopwords, Porter
 * stemming. Identifiers are split sensibly while the whole token is kept:
 * `getUserName`, `user_name`, `IL-6`, `state-of-the-art` yield their parts
 * (`get user name`) for matching and phrase adjacency, plus one "whole" term
 * (`getusernam`, `user_nam`, `il-6`) that rewards an exact identifier match.
 * Same text in, same terms out, on every runtime: no locale-dependent calls.
 */

import { ENGLISH_STOPWORDS } from "./stopwords.ts";
import { porterStem } from "./porter-stemmer.ts";

/** What the analyzer makes of one text. */
export interface Analysis {
  /** Part-level terms in text order: the sequence quoted phrases are matched against. */
  sequence: string[];
  /** Whole-identifier terms (one per compound token), which count for scoring but not for adjacency. */
  extras: string[];
}

/** An analyzer instance; it memoises word normalisation, so keep one per index rather than one per call. */
export interface Analyzer {
  /** Splits text into phrase sequence and whole-identifier extras. */
  analyze(text: string): Analysis;
  /** All index terms of a text, duplicates kept (sequence first, then extras). */
  tokenize(text: string): string[];
}

// A compound token: runs of letters/digits joined by identifier connectors or apostrophes.
const COMPOUND = /[\p{L}\p{N}\p{M}]+(?:[_.\-'\u2019\u2010\u2011][\p{L}\p{N}\p{M}]+)*/gu;
const CONNECTOR = /[_.\-\u2010\u2011]/;
const CONNECTOR_SPLIT = /([_.\-\u2010\u2011])/;
const CAMEL_TEST = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
const CAMEL_SPLIT = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;
const SINGLE_LETTER = /^\p{L}$/u;
const SHORT_LETTERS = /^[A-Za-z]{2,5}$/;
const DIGITS = /^[0-9]{1,3}$/;
// A gene- or protein-style token (`FoxO3a`, `SirT1`, `IgG1`, `HbA1c`): mixed case with a digit, short. Its
// camel-case fragments (`fox`) would match unrelated words, so it stays one term.
const GENE_STYLE = /^(?=.*[0-9])[A-Za-z0-9]{3,8}$/;
const CACHE_LIMIT = 100_000;

// Issue 24: a Greek letter in Latin-script text is a scientific symbol (`NF-κB`, `IFN-γ`, `TGF-β1`): spelled out,
// it matches the spelled forms (`NF-kappaB`, `IFN-gamma`). Runs of three or more Greek letters are Greek words
// and stay as they are.
const GREEK_SYMBOL = /(?<!\p{Script=Greek})\p{Script=Greek}{1,2}(?!\p{Script=Greek})/gu;
const GREEK_NAMES: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(
  "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega"
    .split(" ").flatMap((name, i) => {
      const lower = String.fromCodePoint(0x3b1 + i + (i >= 17 ? 1 : 0)); // U+03C2 (final sigma) sits between rho and sigma
      return [[lower, name], [lower.toUpperCase(), name]];
    }).concat([["\u03c2", "sigma"]]),
));

/**
 * Folds width/compatibility forms (NFKC), spells out Greek letters used as symbols, and strips diacritics
 * from Latin letters only (so `naïve` = `naive`).
 */
export function foldText(text: string): string {
  // Fast path: pure ASCII is already in every normal form and has no marks to fold.
  if (!/[^\x00-\x7f]/.test(text)) return text;
  const nfkc = text.normalize("NFKC");
  const spelled = /\p{Script=Greek}/u.test(nfkc) ? nfkc.replace(GREEK_SYMBOL, (run) => Array.from(run, (ch) => GREEK_NAMES[ch] ?? ch).join("")) : nfkc;
  return spelled.normalize("NFD").replace(LATIN_MARKS, "$1").normalize("NFC");
}

/**
 * A word-as-written → index-term function with its own bounded memo (keyed by the word as written, so a hit
 * costs no lowercasing; emptied when full, so results never depend on it).
 */
export function memoNormalizer(limit = CACHE_LIMIT): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let term = cache.get(word);
    if (term === undefined) {
      term = normalizeWord(word.toLowerCase());
      if (cache.size >= limit) cache.clear();
      cache.set(word, term);
    }
    return term;
  };
}

/** Creates an analyzer with its own bounded word cache. */
export function createAnalyzer(): Analyzer {
  const normalize = memoNormalizer();
  const analyze = (text: string): Analysis => analyzeWith(text, normalize);
  return {
    analyze,
    tokenize: (text) => {
      const a = analyze(text);
      return a.extras.length === 0 ? a.sequence : a.sequence.concat(a.extras);
    },
  };
}

/** Analyzes one text without a cache (convenient for one-off callers; indexes should use `createAnalyzer`). */
export function analyze(text: string): Analysis {
  return analyzeWith(text, (word) => normalizeWord(word.toLowerCase()));
}

/** All index terms of a text, duplicates kept; the same terms the indexes store. */
export function tokenize(text: string): string[] {
  const a = analyze(text);
  return a.sequence.concat(a.extras);
}

/**
 * Normalises one lowercased word to its index term, or "" for a stopword:
 * stopword check (contractions included), possessive `'s` removed, other
 * apostrophes dropped, Porter stem.
 */
export function normalizeWord(lower: string): string {
  if (ENGLISH_STOPWORDS.has(lower)) return "";
  let w = lower;
  if (w.includes("'")) {
    if (w.endsWith("'s")) w = w.slice(0, -2);
    w = w.replace(/'/g, "");
    if (w === "" || ENGLISH_STOPWORDS.has(w)) return "";
  }
  return porterStem(w);
}

/** `normalize` maps a word as written (any case) to its term, "" for a stopword. */
function analyzeWith(text: string, normalize: (word: string) => string): Analysis {
  const sequence: string[] = [];
  const extras: string[] = [];
  const folded = foldText(text);
  let prevEnd = -1, prevLetters = "";
  for (const m of folded.matchAll(COMPOUND)) {
    let raw = m[0];
    // Issue 24: `IL 17` is the term `il17`, as `IL-17` and `IL17` are (a short letter word, a space, a short number).
    if (prevLetters !== "" && m.index === prevEnd + 1 && folded.charCodeAt(prevEnd) === 32 && DIGITS.test(raw)) extras.push(`${porterStem(prevLetters)}${raw}`);
    prevEnd = m.index + raw.length;
    prevLetters = SHORT_LETTERS.test(raw) && !ENGLISH_STOPWORDS.has(raw.toLowerCase()) ? raw.toLowerCase() : "";
    if (raw.includes("\u2019")) raw = raw.replace(/\u2019/g, "'");
    if (!mayBeCompound(raw)) {
      const term = normalize(raw);
      if (term !== "") sequence.push(term);
      continue;
    }
    addCompound(raw, normalize, sequence, extras);
  }
  return { sequence, extras };
}

/** Cheap scan before the regex tests: connectors, or an uppercase/non-ASCII letter after the first. */
function mayBeCompound(raw: string): boolean {
  let upperOrWide = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c === 95 || c === 46 || c === 45 || c === 0x2010 || c === 0x2011) return true; // _ . - ‐ ‑
    if (i > 0 && ((c >= 65 && c <= 90) || c > 127)) upperOrWide = true;
  }
  return upperOrWide && CAMEL_TEST.test(raw);
}

/** Emits the parts of an identifier-like token into `sequence` and its whole form into `extras`. */
function addCompound(raw: string, normalize: (word: string) => string, sequence: string[], extras: string[]): void {
  const lowerRaw = raw.toLowerCase();
  if (ENGLISH_STOPWORDS.has(lowerRaw)) return;
  // Apostrophes are word-internal, not connectors: drop the possessive, then the marks.
  const bare = raw.replace(/'[sS]$/, "").replace(/'/g, "");
  const pieces: string[] = [];
  for (const segment of bare.split(CONNECTOR)) {
    if (segment === "") continue;
    for (const piece of CAMEL_TEST.test(segment) && !GENE_STYLE.test(segment) ? segment.split(CAMEL_SPLIT) : [segment]) pieces.push(piece);
  }
  if (pieces.length === 1) {
    const term = normalize(pieces[0]);
    if (term !== "") sequence.push(term);
    return;
  }
  for (const piece of pieces) {
    if (SINGLE_LETTER.test(piece)) continue; // `m` of mRNA, `T` of T-cell: too ambiguous alone
    const term = normalize(piece);
    if (term !== "") sequence.push(term);
  }
  extras.push(wholeTerm(bare.toLowerCase()));
}

/** The whole-identifier term: connector-separated ASCII-letter segments stemmed, hyphen variants unified. */
function wholeTerm(lower: string): string {
  const bits = lower.split(CONNECTOR_SPLIT);
  for (let i = 0; i < bits.length; i += 2) bits[i] = porterStem(bits[i]);
  for (let i = 1; i < bits.length; i += 2) {
    if (bits[i] === "\u2010" || bits[i] === "\u2011") bits[i] = "-";
    // Issue 24: `il-17` is `il17` (a letter part joined to a number part), so every spelling meets in one term.
    if (bits[i] === "-" && /[a-z]$/.test(bits[i - 1]) && /^[0-9]/.test(bits[i + 1] ?? "")) bits[i] = "";
  }
  return bits.join("");
}
