/** `cairn kb build` (SPEC §4.12, §9; issue 17): the static site's files, determinism, duplicates, escaping, locales and status pages. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { kbBuildCommand } from "../../src/cli/kb-commands.ts";
import { cairn } from "../_helpers/cli.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
afterEach(async () => t?.close());

async function approve(tm: TestMemory, id: number) {
  const view = await (await tm.req("GET", `/proposals/${id}`)).json();
  const r = await tm.req("POST", `/proposals/${id}/approve?digest=${view.content_digest}`);
  expect(r.status).toBe(200);
  return await r.json();
}
async function capture(tm: TestMemory, body: Record<string, unknown>) {
  const p = await (await tm.req("POST", "/ingest/proposal", { kind: "capture", ...body })).json();
  return await approve(tm, p.id);
}
async function translate(tm: TestMemory, body: Record<string, unknown>) {
  const r = await tm.req("POST", "/kcs/translate", body);
  expect(r.status).toBe(201);
  return await approve(tm, (await r.json()).proposal_id);
}

/** Every file under `dir` (relative path → bytes). */
function tree(dir: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const visit = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) visit(p);
      else out.set(relative(dir, p), readFileSync(p));
    }
  };
  visit(dir);
  return out;
}

/** A store with three articles (one a duplicate), a German translation and a hostile title. */
async function seeded(): Promise<TestMemory> {
  const tm = await openTestMemory();
  await capture(tm, { title: "Printer jams on tray 2", content: "Open tray 2 and remove the roller cover.", source: "crm:zendesk:acme:1" });
  await capture(tm, { title: "<script>alert(1)</script> & \"quotes\"", content: "Body with <img src=x onerror=alert(2)> markup.\n\nSecond paragraph.", source: "crm:zendesk:acme:2" });
  // The same title and body as article 1, from another case: an exact-hash duplicate (the proposal differs by source only,
  // so its content is stored already and the approval promotes nothing, but the article is still made).
  const p = await (await tm.req("POST", "/ingest/proposal", { kind: "capture", title: "Printer jams on tray 2", content: "Open tray 2 and remove the roller cover.", source: "crm:zendesk:acme:3" })).json();
  await approve(tm, p.id);
  await translate(tm, { article_id: 1, locale: "de", title: "Drucker klemmt an Fach 2", body: "Fach 2 öffnen und die Walzenabdeckung entfernen." });
  return tm;
}

const opts = (out: string, extra: Record<string, unknown> = {}) => ({ domain: "global", out, baseUrl: "https://kb.example.org/help", json: true, ...extra });

describe("kb build", () => {
  it("writes one page per article and locale, an index per locale, a sitemap with absolute URLs and an Orama index per locale", async () => {
    t = await seeded();
    const out = join(tempDir("cairn-kb-"), "site");
    const r = JSON.parse((await kbBuildCommand(t.memory, opts(out))).lines[0]);
    expect(r).toMatchObject({ domain: "global", articles: 2, locales: ["de", "en"], pages: 3, missing_locales: [], status_pages: 0 });
    expect(r.duplicates).toEqual([expect.objectContaining({ article_id: 3, duplicate_of: 1 })]);
    const files = tree(out);
    const names = [...files.keys()].filter((n) => !n.startsWith("assets/orama/"));
    expect(names).toEqual([".cairn-kb-files", "assets/search.js", "assets/site.css", "de/articles/1.html", "de/index.html", "en/articles/1.html",
      "en/articles/2.html", "en/index.html", "index.html", "search/de.json", "search/en.json", "sitemap.xml"]);
    expect(files.has("assets/orama/index.js")).toBe(true);
    const sitemap = files.get("sitemap.xml")!.toString();
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])).toEqual([
      "https://kb.example.org/help/", "https://kb.example.org/help/de/articles/1.html", "https://kb.example.org/help/de/index.html",
      "https://kb.example.org/help/en/articles/1.html", "https://kb.example.org/help/en/articles/2.html", "https://kb.example.org/help/en/index.html",
    ]);
    const de = files.get("de/articles/1.html")!.toString();
    expect(de).toContain(`<html lang="de"`);
    expect(de).toContain("Drucker klemmt an Fach 2");
    expect(de).toContain(`href="../../en/articles/1.html" hreflang="en"`);
    // Every script comes from the site itself; the CSP forbids inline code and other origins.
    expect(de).toContain(`content="default-src 'none'; script-src 'self'`);
    expect(files.get("en/index.html")!.toString()).toMatch(/<script type="module" src="\.\.\/assets\/search\.js"><\/script>/);
    const idx = JSON.parse(files.get("search/en.json")!.toString());
    expect(idx.internalDocumentIDStore.internalIdToId).toEqual(["1", "2"]);
  });

  it("escapes every stored string in HTML", async () => {
    t = await seeded();
    const out = join(tempDir("cairn-kb-"), "site");
    await kbBuildCommand(t.memory, opts(out));
    const page = readFileSync(join(out, "en/articles/2.html"), "utf8");
    expect(page).not.toContain("<script>alert");
    expect(page).not.toContain("<img");
    expect(page).toContain("&#60;script&#62;alert(1)&#60;/script&#62; &#38; &#34;quotes&#34;");
    expect(page).toContain("<p>Second paragraph.</p>");
    expect(readFileSync(join(out, "en/index.html"), "utf8")).not.toContain("<script>alert");
  });

  it("is deterministic: two builds of the same store are byte-identical, and a rebuild into the same directory drops files no longer planned", async () => {
    t = await seeded();
    const a = join(tempDir("cairn-kb-"), "a");
    const b = join(tempDir("cairn-kb-"), "b");
    await kbBuildCommand(t.memory, opts(a, { withCaseStatus: true }));
    await new Promise((r) => setTimeout(r, 1100));
    await kbBuildCommand(t.memory, opts(b, { withCaseStatus: true }));
    const ta = tree(a);
    const tb = tree(b);
    expect([...tb.keys()]).toEqual([...ta.keys()]);
    for (const [k, v] of ta) expect(tb.get(k)!.equals(v), k).toBe(true);
    await kbBuildCommand(t.memory, opts(a, { locales: "en" }));
    expect(tree(a).has("de/articles/1.html")).toBe(false);
    expect(tree(a).has("en/articles/1.html")).toBe(true);
  });

  it("--locales limits the site; an unknown requested locale is reported; --with-case-status writes unlisted status pages", async () => {
    t = await seeded();
    const run = await t.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:1", origin: "operator" } });
    const minted = await t.memory.workflow.mintStatusRef(run.run.id, { action: "mint" });
    const out = join(tempDir("cairn-kb-"), "site");
    const r = JSON.parse((await kbBuildCommand(t.memory, opts(out, { locales: "de,fr", withCaseStatus: true }))).lines[0]);
    expect(r).toMatchObject({ locales: ["de"], missing_locales: ["fr"], pages: 1, status_pages: 1 });
    const files = tree(out);
    expect(files.has("en/index.html")).toBe(false);
    const status = files.get(`status/${minted.ref}.html`)!.toString();
    expect(status).toContain(`data-status="${minted.document.status}"`);
    expect(status).toContain(`<meta name="robots" content="noindex, nofollow">`);
    expect(files.get("sitemap.xml")!.toString()).not.toContain("status/");
    expect(files.get("de/index.html")!.toString()).not.toContain(minted.ref);
  });

  it("marks a stale translation on its page and in the report", async () => {
    t = await seeded();
    await capture(t, { title: "Printer jams on tray 2", content: "Open tray 2, remove the roller cover, clean the roller.", source: "crm:zendesk:acme:1" });
    const out = join(tempDir("cairn-kb-"), "site");
    const r = JSON.parse((await kbBuildCommand(t.memory, opts(out))).lines[0]);
    expect(r.stale_translations).toEqual([{ article_id: 1, locale: "de" }]);
    expect(readFileSync(join(out, "de/articles/1.html"), "utf8")).toContain("based on revision 1; the article is now at revision 2");
  });

  it("refuses a non-empty directory that is not a previous build, a bad base URL, an unknown domain and a bad locale", async () => {
    t = await seeded();
    const dir = tempDir("cairn-kb-");
    mkdirSync(join(dir, "mine"));
    writeFileSync(join(dir, "mine", "notes.txt"), "keep me");
    await expect(kbBuildCommand(t.memory, opts(join(dir, "mine")))).rejects.toMatchObject({ code: "invalid_request" });
    expect(readFileSync(join(dir, "mine", "notes.txt"), "utf8")).toBe("keep me");
    await expect(kbBuildCommand(t.memory, opts(join(dir, "x"), { baseUrl: "javascript:alert(1)" }))).rejects.toMatchObject({ code: "invalid_request" });
    await expect(kbBuildCommand(t.memory, opts(join(dir, "x"), { domain: "nope" }))).rejects.toMatchObject({ code: "domain_invalid" });
    await expect(kbBuildCommand(t.memory, opts(join(dir, "x"), { locales: "en,<b>" }))).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("runs as `cairn kb build` from the command line", async () => {
    t = await seeded();
    // A missing option is invalid_request, which the CLI maps to exit 2 (usage) like every command's.
    await expect(kbBuildCommand(t.memory, { domain: "global", out: join(t.dir, "s2") })).rejects.toMatchObject({ code: "invalid_request" });
    await t.memory.close();
    const out = join(t.dir, "site");
    const r = await cairn(["kb", "build", "--domain", "global", "--out", out, "--base-url", "http://127.0.0.1:9/"], { CAIRN_DB_PATH: t.dbPath });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("kb build: 2 articles, 3 pages in de, en");
    expect(r.stdout).toContain("duplicate: article 3 has the same content as article 1 (skipped)");
    expect(readFileSync(join(out, "sitemap.xml"), "utf8")).toContain("<loc>http://127.0.0.1:9/en/index.html</loc>");
  });
});
