/**
 * A small, linear HTML tag scanner for the hostile-element strip: finds
 * start and end tags and splits their attributes the way a browser
 * tokenizer does (quoted, unquoted and bare attributes; `/` between
 * attributes), keeping raw offsets so untouched tags are emitted verbatim.
 *
 * One deliberate difference from a browser: an unquoted `<` ends the tag
 * (as unterminated), so `<scr<script>` is read as `<scr` followed by a real
 * `<script>` tag. Every attribute is still checked under one reading or the
 * other, and the strip's fixed point removes what the joined text becomes.
 */

/** One attribute with its raw span inside the source text (leading whitespace included). */
export interface RawAttribute {
  name: string;
  value: string | null;
  start: number;
  end: number;
}

/** One tag with its raw span; `terminated` is false when the text ended before `>`. */
export interface RawTag {
  start: number;
  end: number;
  name: string;
  closing: boolean;
  attributes: RawAttribute[];
  terminated: boolean;
}

const isSpace = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f";
const isLetter = (c: string) => (c >= "a" && c <= "z") || (c >= "A" && c <= "Z");

/** Parses the tag starting at `text[at] === "<"`, or returns null when it is not a tag. */
export function readTag(text: string, at: number): RawTag | null {
  let i = at + 1;
  const closing = text[i] === "/";
  if (closing) i++;
  if (i >= text.length || !isLetter(text[i])) return null;
  const nameStart = i;
  while (i < text.length && !isSpace(text[i]) && text[i] !== "/" && text[i] !== ">" && text[i] !== "<") i++;
  const name = text.slice(nameStart, i).toLowerCase();
  const attributes: RawAttribute[] = [];
  const cut = (end: number): RawTag => ({ start: at, end, name, closing, attributes, terminated: false });
  while (i < text.length) {
    const attrStart = i;
    while (i < text.length && (isSpace(text[i]) || text[i] === "/")) i++;
    if (i >= text.length) break;
    if (text[i] === ">") return { start: at, end: i + 1, name, closing, attributes, terminated: true };
    if (text[i] === "<") return cut(i);
    const n0 = i;
    i++; // the first name character may be anything but space, `/`, `>` or `<` (even `=`)
    while (i < text.length && !isSpace(text[i]) && text[i] !== "/" && text[i] !== ">" && text[i] !== "=" && text[i] !== "<") i++;
    const attrName = text.slice(n0, i).toLowerCase();
    let j = i;
    while (j < text.length && isSpace(text[j])) j++;
    let value: string | null = null;
    if (text[j] === "=") {
      j++;
      while (j < text.length && isSpace(text[j])) j++;
      const q = text[j];
      if (q === '"' || q === "'") {
        const close = text.indexOf(q, j + 1);
        const stop = close === -1 ? text.length : close;
        value = text.slice(j + 1, stop);
        i = close === -1 ? text.length : close + 1;
      } else {
        const v0 = j;
        while (j < text.length && !isSpace(text[j]) && text[j] !== ">" && text[j] !== "<") j++;
        value = text.slice(v0, j);
        i = j;
      }
    }
    attributes.push({ name: attrName, value, start: attrStart, end: i });
  }
  return cut(text.length);
}

const NAMED: Record<string, string> = {
  colon: ":", tab: "\t", newline: "\n", lpar: "(", rpar: ")", amp: "&", lt: "<", gt: ">",
  quot: '"', apos: "'", sol: "/", bsol: "\\", commat: "@", period: ".", num: "#", excl: "!",
};

/** Decodes numeric and the few named entities that can spell a URL scheme or CSS function. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (m, body: string) => {
    if (body[0] === "#") {
      const cp = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(cp) && cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
    }
    return NAMED[body.toLowerCase()] ?? m;
  });
}
