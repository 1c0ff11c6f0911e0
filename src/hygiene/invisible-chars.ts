/**
 * The invisible-character strip of the read seam (SPEC §1 "Input
 * hygiene"), step 2 of `sanitizeForRead`. The set is exactly the one the
 * spec lists; anything else (NBSP, ordinary spaces, CJK spaces) is left for
 * other steps or kept.
 */

/** The SPEC §1 invisible set as inclusive code point ranges `[first, last]`. */
export const INVISIBLE_RANGES: readonly (readonly [number, number])[] = [
  [0xe0000, 0xe007f], // tag block
  [0xfe00, 0xfe0f], // variation selectors
  [0xe0100, 0xe01ef], // variation selectors supplement
  [0x200e, 0x200f], // LRM, RLM
  [0x202a, 0x202e], // LRE, RLE, PDF, LRO, RLO
  [0x2066, 0x2069], // LRI, RLI, FSI, PDI
  [0x061c, 0x061c], // Arabic letter mark
  [0x200b, 0x200d], // ZWSP, ZWNJ, ZWJ
  [0x2060, 0x2060], // word joiner
  [0xfeff, 0xfeff], // BOM / ZWNBSP
  [0x2061, 0x2063], // invisible function application, times, separator
  [0x00ad, 0x00ad], // soft hyphen
  [0x034f, 0x034f], // combining grapheme joiner
  [0x180e, 0x180e], // Mongolian vowel separator
  [0x115f, 0x1160], // Hangul choseong / jungseong fillers
  [0xfff9, 0xfffb], // interlinear annotation anchors
];

const hex = (cp: number) => `\\u{${cp.toString(16)}}`;

/** Matches one character of the SPEC §1 invisible set. */
export const INVISIBLE_PATTERN = new RegExp(
  `[${INVISIBLE_RANGES.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join("")}]`,
  "gu",
);

const INVISIBLE_ONE = new RegExp(INVISIBLE_PATTERN.source, "u");

/** True when the text holds at least one character of the SPEC §1 invisible set. */
export function hasInvisible(text: string): boolean {
  return INVISIBLE_ONE.test(text);
}

/** True when the code point is in the SPEC §1 invisible set. */
export function isInvisible(codePoint: number): boolean {
  return INVISIBLE_RANGES.some(([a, b]) => codePoint >= a && codePoint <= b);
}

/** Removes every character of the SPEC §1 invisible set. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE_PATTERN, "");
}
