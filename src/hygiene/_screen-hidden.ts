/**
 * The hidden-character scan of the injection screen (SPEC §1 "Trust rules"), read from the original text before
 * the invisible strip. It separates two things (issue 36 item 5):
 *
 * - a **hidden payload**: a message a reader cannot see. Tag-block characters outside an emoji flag (models read
 *   them as ASCII), a run of four or more invisible characters (a zero-width binary code between two words needs
 *   eight per letter), variation selectors chained after one another (bytes spelled in selectors after an emoji),
 *   a bidi override (LRO/RLO: the shown order differs from the stored one), a quoted string made only of
 *   invisible characters. A payload is a signal on its own.
 * - a **stray** character: one invisible character (or two or three together) with no everyday use at its place,
 *   such as a ZWSP a scraper left in English text or an LRM after a parenthesis. Encyclopedia and web text is full
 *   of them and they carry no message, so a stray is evidence only beside an attack (`screen.ts`).
 *
 * Runs that decode to text (zero-width binary, selector bytes) are returned for the phrase rules to re-read.
 */
import { INVISIBLE_PATTERN } from "./invisible-chars.ts";

/** What the hidden-character scan found. */
export interface HiddenChars {
  /** Invisible characters that are, or belong to, a hidden payload. */
  payload: number;
  /** Invisible characters outside a payload with no everyday use at their place. */
  stray: number;
  /** ASCII text spelled with tag-block characters outside an emoji tag sequence. */
  tagText: string;
  /** Text decoded from zero-width binary runs and from variation-selector bytes. */
  decoded: string[];
}

/** Consecutive invisible characters from which a run is a payload. */
export const PAYLOAD_RUN = 4;
// A run longer than this is still a payload; only its head is decoded (bounded work on client input, STYLE 17).
const MAX_DECODED_RUN = 65_536;

const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\p{Regional_Indicator}\u{1F3F4}\u{20E3}]/u;
const SYMBOL = /[\p{Extended_Pictographic}\p{S}\p{N}#*\p{Script=Han}]/u;
const JOINING_SCRIPT = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Mongolian}\p{Script=Hebrew}]/u;
const RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}]/u;
const LETTER = /\p{L}/u;
const INVISIBLE_ONE = new RegExp(INVISIBLE_PATTERN.source, "u");
const QUOTES = "\"'`\u201C\u201D\u2018\u2019\u00AB\u00BB";
// A quoted string with nothing visible in it: `reply with "\u200E"`.
const INVISIBLE_QUOTED = new RegExp(`[${QUOTES}]${INVISIBLE_PATTERN.source}+[${QUOTES}]`, "u");

const isSelector = (cp: number) => (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef);
const isTag = (cp: number) => cp >= 0xe0000 && cp <= 0xe007f;
const isTagLetter = (cp: number) => cp >= 0xe0020 && cp <= 0xe007e;

/**
 * True when an invisible character has an everyday use at its position: a variation selector after an emoji,
 * symbol, digit or ideograph; ZWJ inside an emoji sequence; ZWJ/ZWNJ between letters of a joining script; LRM/RLM/ALM
 * next to right-to-left letters; a soft hyphen after a letter; a BOM at the start.
 */
function explained(cp: number, before: string, after: string, atStart: boolean): boolean {
  if (isSelector(cp)) return SYMBOL.test(before);
  const emojiJoin = cp === 0x200d && (PICTOGRAPH.test(before) || /[\uFE0F\u{1F3FB}-\u{1F3FF}]/u.test(before)) && PICTOGRAPH.test(after);
  if (emojiJoin) return true;
  if (cp === 0x200c || cp === 0x200d) return JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after);
  if (cp === 0x200e || cp === 0x200f || cp === 0x061c) return RTL.test(before) || RTL.test(after);
  if (cp === 0x00ad) return LETTER.test(before); // hyphenation point, often left before a line break
  if (cp === 0xfeff) return atStart;
  return false;
}

const printable = (s: string) => s.length > 0 && /^[\x20-\x7e\t\n\r]+$/.test(s);

/** Zero-width binary: two symbols, eight per byte; or three, one of them between letters of variable length. */
function decodeZeroWidth(run: readonly number[], out: string[]): void {
  const symbols = [...new Set(run)];
  const read = (bits: string[], width: number | null) => {
    const codes = width === null ? bits.filter((b) => b !== "").map((b) => parseInt(b, 2)) : (bits.join("").match(new RegExp(`.{${width}}`, "g")) ?? []).map((b) => parseInt(b, 2));
    const s = codes.length > 0 && codes.every((c) => c < 0x110000) ? codes.map((c) => String.fromCodePoint(c)).join("") : "";
    if (printable(s)) out.push(s);
  };
  if (symbols.length === 2 && run.length >= 8) {
    for (const one of symbols) read([run.map((c) => (c === one ? "1" : "0")).join("")], 8);
  } else if (symbols.length === 3) {
    for (const sep of symbols) {
      const [a, b] = symbols.filter((c) => c !== sep);
      const words = (one: number) => run.map((c) => (c === sep ? " " : c === one ? "1" : "0")).join("").split(" ");
      if (words(a).some((w) => w.length > 21)) continue;
      read(words(a), null);
      read(words(b), null);
    }
  }
}

/** Bytes spelled in variation selectors: U+FE00–FE0F are 0–15, U+E0100–E01EF are 16–255. */
function decodeSelectors(run: readonly number[], out: string[]): void {
  const bytes = Uint8Array.from(run.map((cp) => (cp <= 0xfe0f ? cp - 0xfe00 : cp - 0xe0100 + 16)));
  const s = new TextDecoder().decode(bytes);
  if (/^[^\p{Cc}\uFFFD]+$/u.test(s) || printable(s)) out.push(s);
}

/** Scans the original text for hidden payloads and stray invisible characters. */
export function scanHidden(text: string): HiddenChars {
  // Most texts have no invisible character at all: one regex test instead of a per-character walk.
  if (!INVISIBLE_ONE.test(text)) return { payload: 0, stray: 0, tagText: "", decoded: [] };
  let payload = INVISIBLE_QUOTED.test(text) ? 1 : 0;
  let stray = 0;
  let tagText = "";
  const decoded: string[] = [];
  const chars = Array.from(text);
  let run: number[] = [];
  let prevCp = -1; // the previous character's code point
  let flagLetters = false; // whether the tag letters just read follow U+1F3F4
  const endRun = () => {
    if (run.length >= PAYLOAD_RUN) payload += run.length;
    const head = run.length > MAX_DECODED_RUN ? run.slice(0, MAX_DECODED_RUN) : run;
    if (run.length >= 2 && run.every(isSelector) && !run.every((c) => c === 0xfe0f || c === 0xfe0e)) decodeSelectors(head, decoded);
    else if (run.length >= 8) decodeZeroWidth(head, decoded);
    run = [];
  };
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    const cp = c.codePointAt(0) as number;
    if (!INVISIBLE_ONE.test(c)) {
      prevCp = cp;
      endRun();
      continue;
    }
    if (isTag(cp)) {
      // Emoji tag sequence: U+1F3F4, tag letters/digits, U+E007F (subdivision flags) is part of a visible flag.
      // Whether the run of tag letters before this one follows U+1F3F4 is carried forward, not looked up again
      // (walking back over the run for every tag made a long run quadratic: 64k tags took minutes).
      const inFlag: boolean = isTagLetter(prevCp) ? flagLetters : chars[i - 1] === "\u{1F3F4}";
      flagLetters = isTagLetter(cp) && inFlag;
      prevCp = cp;
      if (inFlag) {
        endRun();
        continue;
      }
      payload++;
      if (cp >= 0xe0020 && cp <= 0xe007e) tagText += String.fromCharCode(cp - 0xe0000);
      run.push(cp);
      continue;
    }
    const prev = run.length > 0 ? run[run.length - 1] : -1;
    prevCp = cp;
    run.push(cp);
    if (cp === 0x202d || cp === 0x202e) payload++; // LRO, RLO: the shown order is not the stored order
    else if (isSelector(cp) && isSelector(prev) && !(cp === 0xfe0f && prev === 0xfe0f)) payload++; // selectors chained
    else if (!explained(cp, chars[i - 1] ?? "", chars[i + 1] ?? "", i === 0)) stray++;
  }
  endRun();
  return { payload, stray, tagText, decoded };
}
