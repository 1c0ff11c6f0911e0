/**
 * HTML of the static knowledge-base site (SPEC §4.12 `kb build`). Every
 * stored string is escaped here and nowhere else; links are relative so
 * the site works under any path, and each page carries a restrictive CSP
 * meta (scripts, styles and fetches from the site itself only; no inline
 * code, no frames, no forms posting anywhere).
 */

/** The CSP every page carries (a meta tag cannot set frame-ancestors; a host should add it as a header). */
export const SITE_CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'";

/** Escapes text for HTML element content and quoted attribute values. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One link of the locale switcher. */
export interface LocaleLink {
  locale: string;
  href: string;
  current: boolean;
}

interface Shell {
  lang: string;
  title: string;
  /** Relative path from this page to the site root ("", "../", "../../"). */
  root: string;
  canonical?: string;
  alternates?: { locale: string; href: string }[];
  locales?: LocaleLink[];
  noindex?: boolean;
  search?: boolean;
  main: string;
}

function switcher(links: LocaleLink[]): string {
  if (links.length < 2) return "";
  const items = links.map((l) =>
    l.current
      ? `<li><a href="${esc(l.href)}" hreflang="${esc(l.locale)}" lang="${esc(l.locale)}" aria-current="page">${esc(l.locale)}</a></li>`
      : `<li><a href="${esc(l.href)}" hreflang="${esc(l.locale)}" lang="${esc(l.locale)}">${esc(l.locale)}</a></li>`
  ).join("");
  return `<nav class="locales" aria-label="Language"><ul>${items}</ul></nav>`;
}

/** A whole page. */
export function page(s: Shell): string {
  const head = [
    `<meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${SITE_CSP}">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta name="referrer" content="no-referrer">`,
    s.noindex ? `<meta name="robots" content="noindex, nofollow">` : "",
    `<title>${esc(s.title)}</title>`,
    s.canonical ? `<link rel="canonical" href="${esc(s.canonical)}">` : "",
    ...(s.alternates ?? []).map((a) => `<link rel="alternate" hreflang="${esc(a.locale)}" href="${esc(a.href)}">`),
    `<link rel="stylesheet" href="${s.root}assets/site.css">`,
    s.search ? `<script type="module" src="${s.root}assets/search.js"></script>` : "",
  ].filter((x) => x !== "").join("\n");
  return `<!doctype html>\n<html lang="${esc(s.lang)}" data-root="${esc(s.root)}" data-locale="${esc(s.lang)}">\n<head>\n${head}\n</head>\n<body>\n` +
    `<header>${switcher(s.locales ?? [])}</header>\n<main>\n${s.main}\n</main>\n</body>\n</html>\n`;
}

/** Body text as escaped paragraphs (x-cairn-choice: bodies are shown as plain text; no markdown is rendered). */
export function paragraphs(body: string): string {
  return body.replace(/\r\n?/g, "\n").split(/\n{2,}/).map((p) => p.trim()).filter((p) => p !== "").map((p) => `<p>${esc(p)}</p>`).join("\n");
}

/** The search form an index page carries (answered by assets/search.js, offline). */
export function searchForm(): string {
  return `<form role="search" class="search" id="search-form"><label for="q">Search articles</label> ` +
    `<input type="search" id="q" name="q" autocomplete="off"></form>\n<ol id="results" aria-live="polite"></ol>`;
}
