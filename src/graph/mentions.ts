/**
 * Entity mentions for the deterministic linker (SPEC §2.6 edge source 3).
 * A mention is either a backticked identifier (`` `payments-api` ``) or a
 * capitalised phrase: one or more words that start with an upper-case
 * letter, separated by single spaces ("Priya Raman", "Payments Team",
 * "API Gateway"); after the first word, numbers also continue the phrase
 * ("Incident 0412", "Postgres 15"). Leading capitalised function words ("The", "Yesterday",
 * "Monday", …) are dropped, a possessive `'s` ends the phrase, and the text
 * is cleaned to the entity-name charset ("Node.js" → "Nodejs"). Fenced code,
 * `[[relation::entity]]` annotations and URLs are masked first so they yield
 * no mentions. A plain wikilink (`[[Granite]]`, `[[Granite|the db]]`,
 * `[[Granite#Setup]]`) is a mention of its target, so Obsidian prose such as
 * "Ledger depends on [[Granite]]" relates the two like plain text would.
 */
import { cleanEntityName } from "./validate.ts";

/** One entity mention: display name (charset-clean) and its span in the input. */
export interface Mention {
  name: string;
  start: number;
  end: number;
}

// Capitalised words that open sentences or clauses but never start a name.
const LEADING_STOPWORDS = new Set(
  ("the a an this that these those our their his her its my your we they he she it i you me us them " +
    "in on at for from with by to of and but or if when while after before since until then also " +
    "yesterday today tomorrow now last next every each some any all no both only why how what which who whom whose where there here " +
    "so as because although though however meanwhile later earlier finally first second third once soon still yet " +
    "monday tuesday wednesday thursday friday saturday sunday " +
    "january february march april may june july august september october november december " +
    "is are was were be been do does did can could will would shall should might must has have had " +
    "please note see not nor per via").split(" "),
);

// A phrase starts with a capitalised word; later words may also be numbers ("Incident 0412", "Postgres 15").
const WORD = /[A-Z0-9][A-Za-z0-9]*(?:['’.\-_][A-Za-z0-9]+)*/y;

/**
 * Replaces fenced code blocks, `[[…]]` annotations and URLs with spaces,
 * keeping every other offset, so spans stay valid in the original text.
 */
export function maskNonProse(text: string): string {
  return maskFences(text).replace(WIKILINK, blank).replace(/\bhttps?:\/\/[^\s)>\]]+/g, blank);
}

const blank = (m: string) => m.replace(/[^\n]/g, " ");
const maskFences = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|(?![\s\S]))/gm, blank);
const WIKILINK = /\[\[[^[\]\n]{0,400}\]\]/g;

/** Plain wikilinks outside fenced code as mentions of their targets (annotations `[[rel::x]]` excluded). */
function wikilinkMentions(text: string): Mention[] {
  const out: Mention[] = [];
  for (const m of maskFences(text).matchAll(WIKILINK)) {
    const inner = m[0].slice(2, -2);
    // An embed `![[…]]` or one inside inline code is not prose.
    if (inner.includes("::") || text[m.index - 1] === "`" || text[m.index - 1] === "!") continue;
    const name = cleanEntityName(inner.split("|")[0].split("#")[0].trim());
    if (name !== null) out.push({ name, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

/** Finds entity mentions in text order (deterministic; masked regions yield none). */
export function findMentions(text: string): Mention[] {
  const src = maskNonProse(text);
  const out: Mention[] = [];
  let i = 0;
  let nl = -1; // next newline at or after i (cached so scanning stays linear)
  while (i < src.length) {
    const c = src[i];
    if (c === "`") {
      const close = src.indexOf("`", i + 1);
      if (nl < i + 1) {
        nl = src.indexOf("\n", i + 1);
        if (nl === -1) nl = src.length;
      }
      if (close > i + 1 && close < nl) {
        const name = cleanEntityName(src.slice(i + 1, close));
        if (name !== null) out.push({ name, start: i, end: close + 1 });
        i = close + 1;
        continue;
      }
      i++;
      continue;
    }
    if (c >= "A" && c <= "Z" && (i === 0 || !/[A-Za-z0-9_]/.test(src[i - 1]))) {
      i = readPhrase(src, i, out);
      continue;
    }
    i++;
  }
  const links = wikilinkMentions(text);
  return links.length === 0 ? out : [...out, ...links].sort((a, b) => a.start - b.start);
}

/** Reads one capitalised phrase starting at `start`, pushes its mention if any; returns the next index. */
function readPhrase(src: string, start: number, out: Mention[]): number {
  const words: { s: number; e: number; text: string }[] = [];
  let pos = start;
  for (;;) {
    WORD.lastIndex = pos;
    const m = WORD.exec(src);
    if (m === null) break;
    let text = m[0];
    let e = pos + text.length;
    const possessive = /['’]s$/.test(text);
    if (possessive) {
      text = text.slice(0, -2);
      e -= 2;
    }
    words.push({ s: pos, e, text });
    if (possessive) break; // "Priya's team": the name ends at the possessive
    if (src[e] === " " && /[A-Z0-9]/.test(src[e + 1] ?? "")) {
      pos = e + 1;
      continue;
    }
    break;
  }
  let first = 0;
  while (first < words.length && (LEADING_STOPWORDS.has(words[first].text.toLowerCase()) || /^[0-9]/.test(words[first].text))) first++;
  const end = words.length > 0 ? words[words.length - 1].e : start + 1;
  if (first < words.length) {
    const s = words[first].s;
    const name = cleanEntityName(src.slice(s, end));
    if (name !== null) out.push({ name, start: s, end });
  }
  return Math.max(end, start + 1);
}
