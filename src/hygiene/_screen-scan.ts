/**
 * A faster, exact way to run the screen's phrase rules (ingest throughput,
 * issue "Recall engine": run one by one, the ~50 rule patterns cost ~250 µs
 * per abstract, a quarter of the per-document write budget).
 *
 * Every `rx` rule is `(?<![\w])(?:A|B|…)(?![\w])`, and when each alternative
 * starts with literal word characters (its "anchor"), a match can only begin
 * at a word start (a [a-z0-9_] character not preceded by [A-Za-z0-9_]) whose
 * word is the anchor's leading word — exactly, when the anchor goes on with a
 * non-word character, else as the word's start. So one pass over the text's
 * word starts, walking a trie of anchors, names the few patterns that could
 * match there, and each is tried at that position only (a sticky copy). A
 * pattern whose anchors cannot be read soundly (`anchorsOf` → undefined) is
 * run over the whole text as before. The verdicts are the same as testing
 * every pattern everywhere; test/hygiene/screen-scan.test.ts checks that.
 */

const LEAD = "(?<![\\w])(?:";
const META = new Set(["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]);
const OPTIONAL = new Set(["?", "*", "{"]);

/** What a match of a pattern must begin with: whole leading words, or leading-word starts. */
export interface Anchors {
  words: string[];
  starts: string[];
}

/** The anchors of an `rx`-shaped pattern, or undefined when none can be read soundly. */
export function anchorsOf(re: RegExp): Anchors | undefined {
  // Case-insensitive patterns would need Unicode case folding; the screen's rules are all lowercase, case-sensitive.
  if (re.flags.includes("i") || re.flags.includes("m") || !re.source.startsWith(LEAD)) return undefined;
  const r = alternatives(re.source, LEAD.length);
  if (!r || re.source[r.end] !== ")") return undefined;
  const words = new Set<string>();
  const starts = new Set<string>();
  for (const prefix of r.prefixes) {
    const lead = /^[a-z0-9_]+/.exec(prefix)?.[0];
    if (!lead) return undefined;
    (lead.length < prefix.length ? words : starts).add(lead);
  }
  return { words: [...words], starts: [...starts] };
}

interface TrieNode {
  next: Map<number, TrieNode>;
  /** Patterns whose anchor word ends here (the text's word must end here too). */
  exact: number[];
  /** Patterns whose anchor is a start of the text's word. */
  prefix: number[];
}

const node = (): TrieNode => ({ next: new Map(), exact: [], prefix: [] });

/** A compiled set of patterns: `test(text)` gives, per pattern, whether it matches somewhere. */
export interface PatternScan {
  /** Calls `hit(i)` for patterns that match `text`, skipping those `skip(i)` rules out; stops a pattern at its first match. */
  run(text: string, skip: (i: number) => boolean, hit: (i: number) => void): void;
}

const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;

/** Compiles patterns for `run`. */
export function compileScan(patterns: readonly RegExp[]): PatternScan {
  const root = node();
  const sticky: (RegExp | undefined)[] = [];
  const whole: number[] = [];
  patterns.forEach((p, i) => {
    const a = anchorsOf(p);
    if (!a) {
      whole.push(i);
      sticky.push(undefined);
      return;
    }
    sticky.push(new RegExp(p.source, p.flags.replace("g", "") + "y"));
    const add = (w: string, list: "exact" | "prefix") => {
      let n = root;
      for (let k = 0; k < w.length; k++) {
        const c = w.charCodeAt(k);
        let m = n.next.get(c);
        if (!m) n.next.set(c, (m = node()));
        n = m;
      }
      n[list].push(i);
    };
    for (const w of a.words) add(w, "exact");
    for (const w of a.starts) add(w, "prefix");
  });
  return {
    run(text, skip, hit) {
      const done = new Uint8Array(patterns.length);
      for (const i of whole) {
        if (skip(i)) continue;
        done[i] = 1;
        if (patterns[i].test(text)) hit(i);
      }
      const tryAt = (i: number, p: number) => {
        if (done[i] || skip(i)) return;
        const re = sticky[i]!;
        re.lastIndex = p;
        if (re.test(text)) {
          done[i] = 1;
          hit(i);
        }
      };
      let prevWord = false;
      for (let p = 0; p < text.length; p++) {
        const c = text.charCodeAt(p);
        const word = isWord(c);
        if (word && !prevWord) {
          // Walk the word through the trie: prefix anchors fire on the way, exact ones where the word ends.
          let n: TrieNode | undefined = root;
          let q = p;
          while (n) {
            for (const i of n.prefix) tryAt(i, p);
            if (q >= text.length || !isWord(text.charCodeAt(q))) {
              for (const i of n.exact) tryAt(i, p);
              break;
            }
            n = n.next.get(text.charCodeAt(q));
            q++;
          }
        }
        prevWord = word;
      }
    },
  };
}

interface Parsed { prefixes: string[]; end: number }

// A disjunction from `i` up to (not including) the closing `)` or the end.
function alternatives(src: string, i: number): Parsed | undefined {
  const prefixes: string[] = [];
  for (;;) {
    const first = sequenceStart(src, i);
    if (!first) return undefined;
    prefixes.push(...first);
    i = skipAlternative(src, i);
    if (src[i] !== "|") return { prefixes, end: i };
    i++;
  }
}

// The literal prefixes every match of the alternative starting at `i` begins with.
function sequenceStart(src: string, i: number): string[] | undefined {
  // A lookbehind consumes nothing: what follows it is still what a match begins with.
  if (src.startsWith("(?<=", i) || src.startsWith("(?<!", i)) {
    let j = i + 4;
    for (;;) {
      j = skipAlternative(src, j);
      if (src[j] !== "|") break;
      j++;
    }
    return src[j] === ")" ? sequenceStart(src, j + 1) : undefined;
  }
  if (src.startsWith("(?:", i)) {
    const inner = alternatives(src, i + 3);
    if (!inner || src[inner.end] !== ")") return undefined;
    // An optional group may match nothing: its prefixes are not required.
    if (OPTIONAL.has(src[inner.end + 1])) return undefined;
    return inner.prefixes.length && inner.prefixes.every((p) => p.length > 0) ? inner.prefixes : undefined;
  }
  let j = i;
  while (j < src.length && !META.has(src[j])) j++;
  let lit = src.slice(i, j);
  // `ab?` requires only `a`.
  if (OPTIONAL.has(src[j])) lit = lit.slice(0, -1);
  return lit.length > 0 ? [lit] : undefined;
}

// Index of the `|` or `)` that ends the alternative starting at `i` (depth 0), or src.length.
function skipAlternative(src: string, i: number): number {
  let depth = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") { i += 2; continue; }
    if (c === "[") {
      i++;
      while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (c === "(") depth++;
    else if (c === ")") {
      if (depth === 0) return i;
      depth--;
    } else if (c === "|" && depth === 0) return i;
    i++;
  }
  return i;
}
