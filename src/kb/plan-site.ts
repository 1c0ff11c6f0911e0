/**
 * The pure planner of `cairn kb build` (SPEC §4.12, §9): from the store's
 * articles it plans every file of a static site — one page per article and
 * locale, an index per locale, a root locale chooser, `sitemap.xml` with
 * absolute URLs, a prebuilt Orama index per locale, and (with
 * `--with-case-status`) the static case status pages. Writing is the
 * runtime's (src/runtime/site-files.ts). Deterministic: output depends only
 * on the input (stored rows and stored timestamps), and paths are sorted.
 * Duplicate articles are found by exact content hash only (SPEC §9): the
 * lowest id is published, later ones are skipped and reported.
 */
import { MemoryError } from "../core/errors.ts";
import type { StatusDocument } from "../workflow/status-document.ts";
import type { SiteArticle } from "./kb-service.ts";
import { buildSearchIndex, type SearchDoc } from "./search-index.ts";
import { SEARCH_JS, SITE_CSS } from "./site-assets.ts";
import { esc, page, paragraphs, searchForm, type LocaleLink } from "./site-html.ts";

/** What a build is made from. */
export interface SiteInput {
  domain: string;
  baseUrl: string;
  articles: readonly SiteArticle[];
  /** Only these locales (already validated); absent → every locale present. */
  locales?: readonly string[];
  /** Case status documents by reference (`--with-case-status`). */
  statusPages?: readonly { ref: string; document: StatusDocument }[];
  /** Orama's browser build, site-relative path under assets/orama/ → text. */
  oramaFiles: ReadonlyMap<string, string>;
}

/** What a build did. */
export interface SiteReport {
  domain: string;
  articles: number;
  locales: string[];
  pages: number;
  duplicates: { article_id: number; duplicate_of: number; content_sha256: string }[];
  missing_locales: string[];
  stale_translations: { article_id: number; locale: string }[];
  status_pages: number;
  files: number;
}

/** One article rendered in one locale. */
interface Localized {
  id: number;
  locale: string;
  title: string;
  body: string;
  revision: number;
  basedRevision?: number;
  stale: boolean;
  updated: string;
}

/** Validates `--base-url`: absolute http(s), no query or fragment; returned with a trailing slash. */
export function normalizeBaseUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new MemoryError("invalid_request", "--base-url must be an absolute http(s) URL", { field: "base_url" });
  }
  if ((u.protocol !== "http:" && u.protocol !== "https:") || u.search !== "" || u.hash !== "" || u.username !== "" || u.password !== "") {
    throw new MemoryError("invalid_request", "--base-url must be an http(s) URL without credentials, query or fragment", { field: "base_url" });
  }
  return u.href.endsWith("/") ? u.href : `${u.href}/`;
}

const articlePath = (locale: string, id: number) => `${locale}/articles/${id}.html`;
const byLocale = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function localize(articles: readonly SiteArticle[]): Map<string, Localized[]> {
  const out = new Map<string, Localized[]>();
  const add = (l: Localized) => {
    const list = out.get(l.locale);
    if (list) list.push(l);
    else out.set(l.locale, [l]);
  };
  for (const a of articles) {
    add({ id: a.article.id, locale: a.article.locale, title: a.current.title, body: a.current.body, revision: a.article.revision, stale: false, updated: a.article.updatedAt });
    for (const t of a.translations) {
      add({ id: a.article.id, locale: t.locale, title: t.title, body: t.body, revision: a.article.revision, basedRevision: t.basedRevision, stale: t.basedRevision < a.article.revision, updated: t.approvedAt });
    }
  }
  return out;
}

function xml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Plans the site's files. */
export async function planSite(input: SiteInput): Promise<{ files: Map<string, string>; report: SiteReport }> {
  const base = normalizeBaseUrl(input.baseUrl);
  // SPEC §9: duplicates by exact content hash only; the lowest id stays.
  const seen = new Map<string, number>();
  const duplicates: SiteReport["duplicates"] = [];
  const kept: SiteArticle[] = [];
  for (const a of [...input.articles].sort((x, y) => x.article.id - y.article.id)) {
    const first = seen.get(a.current.contentSha256);
    if (first !== undefined) duplicates.push({ article_id: a.article.id, duplicate_of: first, content_sha256: a.current.contentSha256 });
    else {
      seen.set(a.current.contentSha256, a.article.id);
      kept.push(a);
    }
  }
  const all = localize(kept);
  const wanted = input.locales ? [...new Set(input.locales)].sort(byLocale) : [...all.keys()].sort(byLocale);
  const locales = wanted.filter((l) => all.has(l));
  const files = new Map<string, string>();
  const sitemap: { loc: string; lastmod?: string }[] = [];
  const versionsOf = new Map<number, string[]>();
  for (const l of locales) {
    for (const x of all.get(l)!) {
      const v = versionsOf.get(x.id);
      if (v) v.push(l);
      else versionsOf.set(x.id, [l]);
    }
  }
  let pages = 0;
  for (const l of locales) {
    const list = [...all.get(l)!].sort((a, b) => a.id - b.id);
    const docs: SearchDoc[] = [];
    for (const x of list) {
      const others = versionsOf.get(x.id)!;
      const links: LocaleLink[] = others.map((o) => ({ locale: o, href: `../../${articlePath(o, x.id)}`, current: o === l }));
      const notice = x.stale
        ? `<p class="notice" role="note">This translation is based on revision ${x.basedRevision}; the article is now at revision ${x.revision}.</p>\n`
        : "";
      files.set(articlePath(l, x.id), page({
        lang: l, title: x.title, root: "../../", canonical: base + articlePath(l, x.id), locales: links,
        alternates: others.map((o) => ({ locale: o, href: base + articlePath(o, x.id) })),
        main: `<p><a href="../index.html">All articles</a></p>\n<article>\n<h1>${esc(x.title)}</h1>\n` +
          `<p class="meta">Article ${x.id}, revision ${x.basedRevision ?? x.revision} · ${esc(x.updated)}</p>\n${notice}${paragraphs(x.body)}\n</article>`,
      }));
      pages++;
      docs.push({ id: String(x.id), title: x.title, body: x.body, path: articlePath(l, x.id) });
      sitemap.push({ loc: base + articlePath(l, x.id), lastmod: x.updated });
    }
    const items = list.map((x) => `<li><a href="articles/${x.id}.html">${esc(x.title)}</a>${x.stale ? ` <span class="meta">(outdated translation)</span>` : ""}</li>`).join("\n");
    files.set(`${l}/index.html`, page({
      lang: l, title: `Knowledge base (${l})`, root: "../", canonical: `${base}${l}/index.html`, search: true,
      locales: locales.map((o) => ({ locale: o, href: `../${o}/index.html`, current: o === l })),
      main: `<h1>Knowledge base</h1>\n${searchForm()}\n<h2>Articles</h2>\n<ul class="articles">\n${items}\n</ul>`,
    }));
    sitemap.push({ loc: `${base}${l}/index.html` });
    files.set(`search/${l}.json`, await buildSearchIndex(docs));
  }
  const rootLinks = locales.map((l) => `<li><a href="${l}/index.html" hreflang="${l}" lang="${l}">${l}</a> (${all.get(l)!.length})</li>`).join("\n");
  files.set("index.html", page({
    lang: locales[0] ?? "en", title: "Knowledge base", root: "", canonical: base,
    main: `<h1>Knowledge base</h1>\n<nav aria-label="Language"><ul class="locale-list">\n${rootLinks}\n</ul></nav>`,
  }));
  sitemap.push({ loc: base });
  for (const s of input.statusPages ?? []) {
    // Case status pages are reachable only by their unguessable reference: never listed, never in the sitemap.
    const d = s.document;
    files.set(`status/${s.ref}.html`, page({
      lang: "en", title: "Request status", root: "../", noindex: true,
      main: `<h1>Request status</h1>\n<p class="status" data-status="${esc(d.status)}"><strong>${esc(d.status.replaceAll("_", " "))}</strong></p>\n` +
        `<p>${esc(d.sentence)}</p>\n<p>${esc(d.promise)}</p>\n<p class="meta">${esc(d.build)}</p>`,
    }));
  }
  files.set("assets/site.css", SITE_CSS);
  files.set("assets/search.js", SEARCH_JS);
  for (const [p, text] of input.oramaFiles) files.set(`assets/orama/${p}`, text);
  sitemap.sort((a, b) => byLocale(a.loc, b.loc));
  files.set("sitemap.xml", `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    sitemap.map((u) => `  <url><loc>${xml(u.loc)}</loc>${u.lastmod ? `<lastmod>${xml(u.lastmod)}</lastmod>` : ""}</url>\n`).join("") + `</urlset>\n`);
  const sorted = new Map([...files.entries()].sort((a, b) => byLocale(a[0], b[0])));
  const stale = kept.flatMap((a) => a.translations.filter((t) => t.basedRevision < a.article.revision && locales.includes(t.locale)).map((t) => ({ article_id: a.article.id, locale: t.locale })));
  return {
    files: sorted,
    report: {
      domain: input.domain, articles: kept.length, locales, pages, duplicates, missing_locales: wanted.filter((l) => !all.has(l)),
      stale_translations: stale, status_pages: input.statusPages?.length ?? 0, files: sorted.size,
    },
  };
}
