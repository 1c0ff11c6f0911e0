/**
 * The built knowledge-base site in real headless Chromium (issue 17; SPEC §4.12): served as plain files from a
 * loopback static server, with the site's own CSP enforced. The index renders, the offline search finds an article,
 * the locale switcher works, and no request leaves localhost (every request is recorded; any other host is aborted).
 */
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { mkdirSync, rmSync } from "node:fs";
import { chromium, type BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kbBuildCommand } from "../../src/cli/kb-commands.ts";
import { BROWSER_AVAILABLE } from "../_helpers/browser.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".css": "text/css", ".json": "application/json", ".xml": "application/xml" };

let t: TestMemory;
let server: Server;
let base: string;
let context: BrowserContext;
let profile: string;
const requests: string[] = [];
const consoleErrors: string[] = [];

async function approve(id: number) {
  const view = await (await t.req("GET", `/proposals/${id}`)).json();
  expect((await t.req("POST", `/proposals/${id}/approve?digest=${view.content_digest}`)).status).toBe(200);
}

describe.skipIf(!BROWSER_AVAILABLE)("the kb site in Chromium", () => {
  beforeAll(async () => {
    t = await openTestMemory();
    const add = async (title: string, content: string, source: string) =>
      approve((await (await t.req("POST", "/ingest/proposal", { kind: "capture", title, content, source })).json()).id);
    await add("Printer jams on tray 2", "Open tray 2 and remove the roller cover, then clean the pickup roller.", "crm:zendesk:acme:1");
    await add("Reset a forgotten password", "Use the self-service page and confirm the code sent by email.", "crm:zendesk:acme:2");
    await add("VPN drops every hour", "Renew the client certificate; the old one expires hourly.", "crm:zendesk:acme:3");
    const tr = await (await t.req("POST", "/kcs/translate", { article_id: 1, locale: "de", title: "Drucker klemmt an Fach 2", body: "Fach 2 öffnen und die Walzenabdeckung entfernen." })).json();
    await approve(tr.proposal_id);
    const out = join(t.dir, "site");
    await kbBuildCommand(t.memory, { domain: "global", out, baseUrl: "https://kb.example.org/" });
    server = createServer(async (req, res) => {
      const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^\/+/, "");
      const file = join(out, path === "" || path.endsWith("/") ? `${path}index.html` : path);
      if (!file.startsWith(out)) return void res.writeHead(403).end();
      try {
        const body = await readFile(file);
        res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream" }).end(body);
      } catch {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    profile = tempDir("cairn-chromium-");
    mkdirSync(profile, { recursive: true });
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "/usr/bin/chromium", headless: true, bypassCSP: false,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--disable-default-apps", "--disable-domain-reliability", "--no-pings"],
    });
    // Record every request; anything not on this loopback origin is aborted (and fails the test below).
    await context.route("**/*", (route) => {
      const u = route.request().url();
      requests.push(u);
      return u.startsWith(base + "/") ? route.continue() : route.abort();
    });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await t?.close();
  });

  it("renders the index, finds an article offline, switches locale, and every request stays on localhost", async () => {
    const page = await context.newPage();
    page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
    page.on("pageerror", (e) => consoleErrors.push(String(e)));

    await page.goto(`${base}/index.html`);
    await expect(page.locator("h1").textContent()).resolves.toBe("Knowledge base");
    await page.getByRole("link", { name: "en" }).click();
    await page.waitForURL(`${base}/en/index.html`);
    expect(await page.locator("ul.articles li").count()).toBe(3);

    await page.fill("#q", "roller");
    const hit = page.locator("#results a");
    await expect.poll(async () => hit.allTextContents(), { timeout: 15_000 }).toEqual(["Printer jams on tray 2"]);
    await page.fill("#q", "certificat");
    await expect.poll(async () => hit.allTextContents(), { timeout: 15_000 }).toEqual(["VPN drops every hour"]);

    await page.fill("#q", "roller");
    await expect.poll(async () => hit.allTextContents(), { timeout: 15_000 }).toEqual(["Printer jams on tray 2"]);
    await hit.first().click();
    await page.waitForURL(`${base}/en/articles/1.html`);
    expect(await page.locator("html").getAttribute("lang")).toBe("en");
    await page.locator('nav.locales a[hreflang="de"]').click();
    await page.waitForURL(`${base}/de/articles/1.html`);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    await expect(page.locator("h1").textContent()).resolves.toBe("Drucker klemmt an Fach 2");

    // German search runs on the German index.
    await page.goto(`${base}/de/index.html`);
    await page.fill("#q", "walzenabdeckung");
    await expect.poll(async () => page.locator("#results a").allTextContents(), { timeout: 15_000 }).toEqual(["Drucker klemmt an Fach 2"]);

    expect(requests.length).toBeGreaterThan(5);
    expect(requests.filter((u) => !u.startsWith(base + "/"))).toEqual([]);
    expect(requests).toContain(`${base}/search/en.json`);
    expect(requests).toContain(`${base}/assets/orama/index.js`);
    // The site works under its own CSP: no violation or script error was logged.
    expect(consoleErrors).toEqual([]);
  }, 120_000);
});
