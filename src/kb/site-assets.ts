/**
 * The static site's own assets: the stylesheet and the offline search
 * script. The script loads Orama's browser build from `assets/orama/`
 * (copied from node_modules by the runtime, never fetched from a CDN),
 * loads the prebuilt index of its locale (`search/<locale>.json`, made with
 * Orama's `save`) and renders hits with DOM text nodes only.
 */

/** The site's stylesheet. */
export const SITE_CSS = `:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { max-width: 46rem; margin: 0 auto; padding: 1rem; }
header { display: flex; justify-content: flex-end; }
.locales ul { list-style: none; display: flex; gap: .75rem; margin: 0; padding: 0; }
.locales a[aria-current] { font-weight: bold; text-decoration: none; }
.search input { width: 100%; font-size: 1rem; padding: .4rem; }
.notice { border-left: 4px solid #b58900; padding: .25rem .75rem; }
main p { white-space: pre-wrap; }
.meta { color: GrayText; font-size: .9rem; }
`;

/** The search script (an ES module; no inline code, so the CSP needs no 'unsafe-inline'). */
export const SEARCH_JS = `// Orama's browser build is copied beside this script (no CDN, no network) and loaded on first use.
const ORAMA = new URL("./orama/index.js", import.meta.url).href;

const html = document.documentElement;
const root = html.dataset.root || "";
const locale = html.dataset.locale;
const input = document.getElementById("q");
const out = document.getElementById("results");
const form = document.getElementById("search-form");
let db;
let orama;

async function index() {
  if (db) return db;
  orama ??= await import(ORAMA);
  const res = await fetch(root + "search/" + encodeURIComponent(locale) + ".json");
  const raw = await res.json();
  const fresh = orama.create({ schema: { title: "string", body: "string" } });
  orama.load(fresh, raw);
  db = fresh;
  return db;
}

async function run() {
  const term = input.value.trim();
  if (term === "") return void out.replaceChildren();
  const idx = await index();
  const found = await orama.search(idx, { term, limit: 20, tolerance: 1, boost: { title: 2 } });
  // A newer query is in flight: its answer wins.
  if (input.value.trim() !== term) return;
  out.replaceChildren();
  for (const hit of found.hits) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = root + hit.document.path;
    a.textContent = hit.document.title;
    li.append(a);
    out.append(li);
  }
  if (found.hits.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No article matches.";
    out.append(li);
  }
  out.dataset.ready = "1";
}

if (form) form.addEventListener("submit", (e) => { e.preventDefault(); void run(); });
if (input) {
  input.addEventListener("input", () => { void run(); });
  // A query typed before this module ran is answered too.
  if (input.value.trim() !== "") void run();
}
`;
