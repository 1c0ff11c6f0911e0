/**
 * The text view the injection screen reads: invisible characters stripped
 * (SPEC §1: verdicts are taken after that strip), NFKC (fullwidth and
 * mathematical letters become ASCII), diacritics removed, common
 * Cyrillic, Greek and small-capital look-alikes folded to Latin, lowercase,
 * runs of spaces and tabs collapsed. Newlines are kept for line rules.
 */
import { INVISIBLE_PATTERN, stripInvisible } from "./invisible-chars.ts";

// Look-alikes NFKC leaves alone (Unicode confusables, the Latin-looking subset).
const CONFUSABLES: Record<string, string> = {
  // Cyrillic
  а: "a", в: "b", е: "e", ё: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x",
  ѕ: "s", і: "i", ї: "i", ј: "j", ԁ: "d", ԛ: "q", ԝ: "w", ӏ: "l", һ: "h", ɡ: "g", ү: "y", ѡ: "w",
  А: "a", В: "b", Е: "e", К: "k", М: "m", Н: "h", О: "o", Р: "p", С: "c", Т: "t", Х: "x", У: "y",
  Ѕ: "s", І: "i", Ј: "j", Ү: "y", Ԛ: "q", Ԝ: "w",
  // Greek
  α: "a", ο: "o", ι: "i", κ: "k", ν: "v", ρ: "p", τ: "t", υ: "u", χ: "x", ε: "e", ϲ: "c",
  Α: "a", Β: "b", Ε: "e", Ζ: "z", Η: "h", Ι: "i", Κ: "k", Μ: "m", Ν: "n", Ο: "o", Ρ: "p", Τ: "t", Υ: "y", Χ: "x",
  // Small capitals and other Latin-looking letters
  ᴀ: "a", ʙ: "b", ᴄ: "c", ᴅ: "d", ᴇ: "e", ғ: "f", ɢ: "g", ʜ: "h", ɪ: "i", ᴊ: "j", ᴋ: "k", ʟ: "l", ᴍ: "m",
  ɴ: "n", ᴏ: "o", ᴘ: "p", ʀ: "r", ꜱ: "s", ᴛ: "t", ᴜ: "u", ᴠ: "v", ᴡ: "w", ʏ: "y", ᴢ: "z", ı: "i", ɑ: "a", ł: "l",
  // Punctuation look-alikes
  "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"', "\u00bb": '"', "\u2013": "-", "\u2014": "-", "\u00a0": " ",
};
const ASCII = /^[\x00-\x7f]*$/;
const CONFUSABLE_PATTERN = new RegExp(`[${Object.keys(CONFUSABLES).join("")}]`, "gu");

/**
 * Folds text into the screen's comparison form. Invisible characters are
 * removed (`invisibleAs = ""`, joining `ig\u200Bnore`) or turned into
 * spaces (`" "`, splitting `ignore\u200Ball`); the screen reads both.
 */
export function foldForScreen(text: string, invisibleAs = ""): string {
  // ASCII text has no invisible character, look-alike or mark, and the normal forms leave it as it is.
  if (ASCII.test(text)) return text.toLowerCase().replace(/[ \t\r\f\v]+/g, " ");
  return (invisibleAs === "" ? stripInvisible(text) : text.replace(INVISIBLE_PATTERN, invisibleAs))
    .normalize("NFKC")
    .replace(CONFUSABLE_PATTERN, (c) => CONFUSABLES[c])
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[ \t\r\f\v]+/g, " ");
}

// Cyrillic letters by sound (Serbian Latin, with the Russian-only letters), for English written phonetically in Cyrillic.
const CYRILLIC_SOUNDS: Record<string, string> = {
  а: "a", б: "b", в: "v", г: "g", д: "d", ђ: "dj", е: "e", ё: "e", ж: "z", з: "z", и: "i", й: "j", ј: "j", к: "k",
  л: "l", љ: "lj", м: "m", н: "n", њ: "nj", о: "o", п: "p", р: "r", с: "s", т: "t", ћ: "c", у: "u", ф: "f", х: "h",
  ц: "c", ч: "c", џ: "dz", ш: "s", щ: "sc", ъ: "", ы: "y", ь: "", э: "e", ю: "ju", я: "ja", і: "i", ї: "i", є: "e",
};
const CYRILLIC = /[\u0400-\u04ff]/u;
const CYRILLIC_ALL = /[\u0400-\u04ff]/gu;

/** Whether a text holds Cyrillic letters (the screen then also reads it by sound). */
export const hasCyrillic = (text: string): boolean => CYRILLIC.test(text);

/** Cyrillic letters spelled out by sound ("Игноре алл" → "ignore all"); other characters stay. */
export function transliterateCyrillic(text: string): string {
  return text.replace(CYRILLIC_ALL, (c) => {
    const low = c.toLowerCase();
    return CYRILLIC_SOUNDS[low] ?? low;
  });
}
