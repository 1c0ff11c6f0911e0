/**
 * The hostile-element strip of the read seam (SPEC §1 "Input hygiene"),
 * step 5 of `sanitizeForRead`. Emitted text may be rendered by a channel or
 * a client, so nothing in it may run script or make the renderer fetch:
 *
 * - `script` and `style` elements are removed with their content;
 * - `iframe`, `object`, `embed`, `frame`, `frameset`, `applet`, `base`,
 *   `link`, `meta` and `portal` tags are removed (the fallback text between
 *   an `iframe`/`object` open and close tag stays, as plain text);
 * - on every other tag: event handlers (`on*`), `ping`, `srcdoc` and a
 *   fetch-capable `style` attribute are dropped whole; auto-fetch
 *   attributes (`src`, `srcset`, ...) are dropped unless they hold only a
 *   `#fragment`; form targets (`action`, `formaction`) are dropped when
 *   absolute; any attribute whose value is a `javascript:`, `vbscript:`,
 *   `data:` or `file:` URL is dropped; `href` on SVG fetching elements
 *   (`image`, `use`, `feimage`) is dropped.
 *
 * Tags with nothing to drop are emitted byte for byte. Removal can join
 * fragments into a new tag (`<scr<script></script>ipt>`), so the strip runs
 * to a fixed point; if that takes more than `MAX_PASSES`, every remaining
 * `<` is escaped as `&lt;` (fail closed).
 */
import { decodeEntities, type RawAttribute, type RawTag, readTag } from "./_html-tags.ts";

/** Elements removed together with everything up to their close tag. */
export const REMOVED_WITH_CONTENT = ["script", "style"] as const;
/** Elements whose tags are removed (content between open and close tags stays). */
export const REMOVED_TAGS = ["iframe", "object", "embed", "frame", "frameset", "applet", "base", "link", "meta", "portal"] as const;
/** Attributes that make a renderer fetch on sight; dropped unless the value is a bare `#fragment`. */
export const AUTO_FETCH_ATTRIBUTES = [
  "src", "srcset", "imagesrcset", "background", "poster", "data", "lowsrc", "dynsrc",
  "codebase", "archive", "classid", "longdesc", "manifest", "profile", "icon",
] as const;
/** CSS that can fetch or run code; a `style` attribute containing one is dropped whole. */
export const FETCHING_CSS = [
  "url(", "image(", "image-set(", "cross-fade(", "element(", "src(", "paint(", "expression(",
  "@import", "-moz-binding", "behavior:", "javascript:", "vbscript:",
] as const;

const MAX_PASSES = 16;
const DANGEROUS_SCHEME = /^(?:javascript|vbscript|data|file):/;
const ABSOLUTE_URL = /^(?:[a-z][a-z0-9+.-]*:|\/\/|\\\\)/;
const SVG_FETCHING = new Set(["image", "use", "feimage"]);
const withContent = new Set<string>(REMOVED_WITH_CONTENT);
const tagOnly = new Set<string>(REMOVED_TAGS);
const autoFetch = new Set<string>(AUTO_FETCH_ATTRIBUTES);

/** A URL as a browser reads it: entities decoded, ASCII whitespace and controls removed, lowercase. */
function urlForm(value: string): string {
  return decodeEntities(value).replace(/[\u0000-\u0020]/g, "").toLowerCase();
}

/** CSS as it is parsed: entities and CSS escapes decoded, comments and whitespace removed, lowercase. */
function cssForm(value: string): string {
  return decodeEntities(value)
    .replace(/\/\*[\s\S]*?(?:\*\/|$)/g, "")
    .replace(/\\([0-9a-f]{1,6})\s?/gi, (_, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff) || 0xfffd))
    .replace(/\\(.)/g, "$1")
    .replace(/\s+/g, "")
    .toLowerCase();
}

function dropAttribute(tag: string, a: RawAttribute): boolean {
  const { name } = a;
  if (name.startsWith("on") || name === "ping" || name === "srcdoc") return true;
  const value = a.value ?? "";
  if (name === "style") return FETCHING_CSS.some((f) => cssForm(value).includes(f));
  const url = urlForm(value);
  if (DANGEROUS_SCHEME.test(url)) return true;
  if (autoFetch.has(name)) return url !== "" && !url.startsWith("#");
  if (name === "action" || name === "formaction") return ABSOLUTE_URL.test(url);
  if ((name === "href" || name === "xlink:href") && SVG_FETCHING.has(tag)) return url !== "" && !url.startsWith("#");
  return false;
}

function rewriteTag(text: string, tag: RawTag): string {
  const raw = text.slice(tag.start, tag.end);
  const dropped = tag.attributes.filter((a) => dropAttribute(tag.name, a));
  if (dropped.length === 0) return raw;
  let out = "";
  let cursor = tag.start;
  for (const a of dropped) {
    out += text.slice(cursor, a.start);
    cursor = a.end;
  }
  return out + text.slice(cursor, tag.end);
}

/** Index just past the close tag of a removed-with-content element, or past the open tag when unclosed. */
function endOfElement(text: string, tag: RawTag, lastClose: Map<string, number>): number {
  const close = new RegExp(`</${tag.name}(?=[\\s/>]|$)`, "gi");
  if (!lastClose.has(tag.name)) {
    // Found once per pass, so many unclosed open tags cost one scan, not one each.
    let last = -1;
    for (const m of text.matchAll(close)) last = m.index;
    lastClose.set(tag.name, last);
  }
  if ((lastClose.get(tag.name) as number) < tag.end) return tag.end; // unclosed: only the open tag goes
  close.lastIndex = tag.end;
  const m = close.exec(text) as RegExpExecArray;
  const gt = text.indexOf(">", m.index);
  return gt === -1 ? text.length : gt + 1;
}

function onePass(text: string): string {
  const lastClose = new Map<string, number>();
  let out = "";
  let cursor = 0;
  let at = text.indexOf("<");
  while (at !== -1) {
    const tag = readTag(text, at);
    if (!tag) {
      at = text.indexOf("<", at + 1);
      continue;
    }
    out += text.slice(cursor, tag.start);
    if (withContent.has(tag.name)) cursor = tag.closing ? tag.end : endOfElement(text, tag, lastClose);
    else if (tagOnly.has(tag.name)) cursor = tag.end;
    else {
      out += rewriteTag(text, tag);
      cursor = tag.end;
    }
    at = text.indexOf("<", cursor);
  }
  return out + text.slice(cursor);
}

/** Removes script-bearing and fetching elements and attributes (SPEC §1), to a fixed point. */
export function stripHostileElements(text: string): string {
  if (!text.includes("<")) return text;
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = onePass(current);
    if (next === current) return next;
    current = next;
  }
  return current.replace(/</g, "&lt;");
}
