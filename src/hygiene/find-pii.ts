/**
 * Finds the personal data the read seam masks (SPEC §1 "Input hygiene"
 * placeholder vocabulary): email addresses, phone numbers (runs of 10 to
 * 15 digits with separators) and card numbers (Luhn-valid runs of 13 to 19
 * digits). Kinds are found in the spec's order (email, then phone, then
 * card); each later kind only sees text the earlier kinds left.
 *
 * Phone rule, precisely:
 * - a candidate is a run of digits joined by up to three separator
 *   characters from the SPEC set `- ( ) . +` plus space and tab (real
 *   numbers are mostly written with spaces), optionally opened by `+` or
 *   `(`, optionally followed by an extension (`x123`, `ext. 123`), and not
 *   touching a letter, digit, `_` or `@`;
 * - it is a phone when its digits (extension excluded) number 10 to 15;
 * - a candidate whose digits form a Luhn-valid run of 13 to 19 is a card
 *   (with any of these separators), so a card is never eaten as a phone;
 * - a candidate of more than 15 digits is split at whitespace only when
 *   every part is itself a 10-to-15-digit phone (a list of numbers);
 *   otherwise it is not a phone (a non-Luhn 16-digit run stays as it is);
 * - a candidate may not start right after a letter or digit and a hyphen
 *   (`PF-04449913` is an identifier);
 * - dotted quads (IPv4), plain decimals, dots mixed with other separators
 *   (`0.092-0.680`, `1109.05+329.91`), ascending same-width hyphen ranges
 *   (`12442-12448`) and ISO or day-first dates are not phones.
 *
 * Card rule: 13 to 19 digits, contiguous or grouped by single spaces or
 * hyphens (a widening of the SPEC's "contiguous", since printed cards are
 * grouped), passing Luhn. A grouped run may hold more than the card (a CVV,
 * an expiry, an order number beside it): every window of 13 to 19 digits
 * that starts and ends on a group boundary is tried, leftmost then longest,
 * so `4111111111111111 123` masks the card and keeps `123`. A contiguous run
 * is a card only as a whole (windows inside one digit string would turn
 * long identifiers into false cards one time in ten).
 */
import { luhnValid } from "./luhn.ts";

/** The placeholder kinds of SPEC §1. */
export type PiiKind = "email" | "phone" | "card";

/** One finding, as UTF-16 offsets into the input text. */
export interface PiiSpan {
  kind: PiiKind;
  start: number;
  end: number;
}

// Local part at most 64 and labels at most 63 characters (RFC 5321 sizes), which also bounds backtracking.
const EMAIL =
  /(?<![\p{L}\p{N}._%+'-])[\p{L}\p{N}_%+'-](?:[\p{L}\p{N}._%+'-]{0,62}[\p{L}\p{N}_%+'-])?@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.){1,16}\p{L}{2,63}(?![\p{L}\p{N}-])/gu;
const PHONE =
  /(?<![\p{L}\p{N}_@])(?<![\p{L}\p{N}]-)[+(]?[ \t]?\d(?:[-.()+ \t]{0,3}\d)*\)?(?:[ \t]?(?:x|ext\.?|extension)[ \t]?\d{1,6})?(?![\p{L}\p{N}_@])/giu;
const CARD_RUN = /(?<![\p{L}\p{N}_])\d(?:[ -]?\d)*(?![\p{L}\p{N}_])/gu;
const EXTENSION = /[ \t]?(?:x|ext\.?|extension)[ \t]?\d{1,6}$/i;
const NOT_PHONE = [
  /^\d{1,3}(?:\.\d{1,3}){3}$/, // IPv4
  /^\d+\.\d+$/, // decimal number
  /^\d{4}[-./]\d{1,2}[-./]\d{1,2}/, // ISO date, maybe with a time after it
  /^\d{1,2}[-./]\d{1,2}[-./]\d{4}(?!\d)/, // day-first or month-first date
  /^\+?[\d ]*\.[\d.]*[-+() ]/, // a dot, then another separator: decimals, arithmetic
];

/**
 * Another separator, then a dot (`1109.05+329.91` read from the right): what `/^\+?[\d ]*[-+() ][\d\-+() ]*\./`
 * matches, in one pass (the regex backtracked over every space of a long run without a dot: quadratic).
 */
function sepThenDot(core: string): boolean {
  let i = 0;
  while (i < core.length && isDigit(core[i])) i++;
  // The first non-digit is the earliest separator the regex can take, or there is none inside its [\d ]* prefix.
  if (!"-+() ".includes(core[i] ?? "x")) return false;
  i++;
  while (i < core.length && (isDigit(core[i]) || "-+() ".includes(core[i]))) i++;
  return core[i] === ".";
}
const isDigit = (c: string) => c >= "0" && c <= "9";
const MASK = "\uffff";

const digitsOf = (s: string) => s.replace(/\D/g, "");
const count = (s: string, c: string) => s.split(c).length - 1;

/** `12442-12448`, `12000 - 53000`: two same-width numbers, ascending, joined by a hyphen. */
function isRange(core: string): boolean {
  const m = /^(\d+)[ \t]?-[ \t]?(\d+)$/.exec(core);
  return m !== null && m[1].length === m[2].length && Number(m[1]) < Number(m[2]);
}
const isPhoneSized = (n: number) => n >= 10 && n <= 15;
const isCardShaped = (digits: string) => digits.length >= 13 && digits.length <= 19 && luhnValid(digits);

/**
 * Splits an over-long candidate at whitespace into parts that are all phone-sized, or returns null: the first way
 * found taking the shortest first phone, worked backwards from the last part (a loop, not a recursion per part: a long
 * list of short numbers overflowed the stack).
 */
function splitList(text: string, start: number): PiiSpan[] | null {
  const parts = [...text.matchAll(/\S+/g)].map((m) => ({ s: m.index, e: m.index + m[0].length, n: digitsOf(m[0]).length }));
  // end[i]: the last part of the phone that starts at part i in the split of parts i.. (-1: no split).
  const end = new Int32Array(parts.length + 1).fill(-1);
  const ok = new Uint8Array(parts.length + 1);
  ok[parts.length] = 1;
  for (let i = parts.length - 1; i >= 0; i--) {
    let n = 0;
    for (let j = i; j < parts.length; j++) {
      n += parts[j].n;
      if (n > 15) break;
      if (isPhoneSized(n) && ok[j + 1]) {
        end[i] = j;
        ok[i] = 1;
        break;
      }
    }
  }
  if (!ok[0]) return null;
  const out: PiiSpan[] = [];
  for (let i = 0; i < parts.length; i = end[i] + 1) out.push({ kind: "phone", start: start + parts[i].s, end: start + parts[end[i]].e });
  return out;
}

function phoneSpans(candidate: string, start: number): PiiSpan[] {
  const core = candidate.replace(EXTENSION, "");
  const digits = digitsOf(core);
  if (!NOT_PHONE.some((re) => re.test(core.trim())) && !sepThenDot(core.trim()) && !isRange(core.trim())) {
    // A Luhn-valid 13-to-19-digit run is a card, whatever the separators (issue 27: leaving it to the card rule, which
    // reads only single spaces and hyphens, let `4111.1111.1111.1111` or `4111  1111 …` through both rules).
    if (isCardShaped(digits)) return [{ kind: "card", start, end: start + candidate.length }];
    if (isPhoneSized(digits.length)) return [{ kind: "phone", start, end: start + candidate.length }];
    const list = digits.length > 15 && /\s/.test(candidate) ? splitList(candidate, start) : null;
    if (list) return list;
  }
  return cardsIn(candidate, start);
}

/**
 * The card windows of a candidate that is not a phone as a whole, with any of the phone rule's separators (issue 27:
 * `4111  1111  1111  1111 737` or `4111.1111.1111.1111 12/25` leaked, the run being neither a card nor a phone and the
 * card rule reading only single spaces and hyphens). The text between the cards is read again as a phone candidate.
 */
function cardsIn(candidate: string, start: number): PiiSpan[] {
  const cards = cardSpans(candidate, start);
  if (cards.length === 0) return [];
  const out: PiiSpan[] = [];
  let cursor = start;
  for (const c of [...cards, { kind: "card" as const, start: start + candidate.length, end: start + candidate.length }]) {
    const gap = /[+(]?\d(?:.*\d)?\)?/s.exec(candidate.slice(cursor - start, c.start - start));
    if (gap) out.push(...phoneSpans(gap[0], cursor + gap.index));
    if (c.end > c.start) out.push(c);
    cursor = c.end;
  }
  return out;
}

/** Replaces the (sorted, non-overlapping) spans with filler of the same length, in one pass. */
function mask(text: string, spans: readonly PiiSpan[]): string {
  let out = "";
  let cursor = 0;
  for (const s of spans) {
    out += text.slice(cursor, s.start) + MASK.repeat(s.end - s.start);
    cursor = s.end;
  }
  return out + text.slice(cursor);
}

/** Finds emails, then phones, then cards; the spans never overlap and come sorted by start. */
export function findPii(text: string): PiiSpan[] {
  const spans: PiiSpan[] = [];
  for (const m of text.matchAll(EMAIL)) spans.push({ kind: "email", start: m.index, end: m.index + m[0].length });
  let seen = spans.length > 0 ? mask(text, spans) : text;
  const phones: PiiSpan[] = [];
  for (const m of seen.matchAll(PHONE)) {
    // Trailing spaces or separators are not part of the number.
    let trimmed = m[0].replace(/[-.(+ \t]+$/, "");
    if (trimmed.endsWith(")") && count(trimmed, ")") > count(trimmed, "(")) trimmed = trimmed.slice(0, -1);
    const lead = trimmed.length - trimmed.trimStart().length;
    phones.push(...phoneSpans(trimmed.trimStart(), m.index + lead));
  }
  spans.push(...phones);
  if (phones.length > 0) seen = mask(seen, phones);
  for (const m of seen.matchAll(CARD_RUN)) spans.push(...cardSpans(m[0], m.index));
  return spans.sort((a, b) => a.start - b.start);
}

/** Card windows in one digit run (digits joined by single spaces or hyphens): group-aligned, leftmost, longest first. */
function cardSpans(run: string, start: number): PiiSpan[] {
  const groups = [...run.matchAll(/\d+/g)].map((g) => ({ s: g.index, e: g.index + g[0].length, d: g[0] }));
  const out: PiiSpan[] = [];
  let i = 0;
  while (i < groups.length) {
    let found = -1;
    let digits = "";
    const windows: number[] = [];
    for (let j = i; j < groups.length; j++) {
      digits += groups[j]!.d;
      if (digits.length > 19) break;
      if (digits.length >= 13) windows.push(j);
    }
    for (let k = windows.length - 1; k >= 0 && found < 0; k--) {
      const j = windows[k]!;
      if (luhnValid(groups.slice(i, j + 1).map((g) => g.d).join(""))) found = j;
    }
    if (found < 0) { i++; continue; }
    out.push({ kind: "card", start: start + groups[i]!.s, end: start + groups[found]!.e });
    i = found + 1;
  }
  return out;
}
