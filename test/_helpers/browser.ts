/**
 * Browser-test harness (issue 19): Debian's Chromium driven by
 * playwright-core, headless, with background networking off and a fresh
 * profile directory, against a real Cairn server on loopback.
 */
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "./memory.ts";

const CHROMIUM = "/usr/bin/chromium";

/** True when the browser tests can run; `.ci/run` sets CAIRN_REQUIRE_BROWSER=1 so CI never skips them. */
export const BROWSER_AVAILABLE = existsSync(CHROMIUM) || process.env.CAIRN_REQUIRE_BROWSER === "1";

/** Where screenshots and figures go (git-ignored). */
export const ARTIFACTS = new URL("../../test-artifacts/", import.meta.url).pathname;

/** A real server on 127.0.0.1 with a fresh database. */
export interface LiveServer {
  base: string;
  dbPath: string;
  booted: BootedServer;
  /** A JSON request with the server's token (when one is set). */
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** Boots a server on port 0; `token` sets `AUTH_TOKEN`. */
export async function liveServer(token?: string): Promise<LiveServer> {
  const dir = tempDir("cairn-web-");
  const dbPath = join(dir, "web.db");
  const env: Record<string, string> = { CAIRN_DB_PATH: dbPath };
  if (token) env.AUTH_TOKEN = token;
  const booted = await bootServer(env, 0);
  const base = `http://127.0.0.1:${booted.server.port}`;
  return {
    base, dbPath, booted,
    async api(method, path, body) {
      const headers: Record<string, string> = {};
      if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers["content-type"] = "application/json";
      const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      await booted.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A headless Chromium with a fresh profile. */
export interface Browser {
  context: BrowserContext;
  page(width?: number): Promise<Page>;
  close(): Promise<void>;
}

/** Launches Chromium (`/usr/bin/chromium`). CSP is bypassed only so axe-core can be injected. */
export async function launchBrowser(): Promise<Browser> {
  const profile = tempDir("cairn-chromium-");
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
  return {
    context,
    async page(width = 1280) {
      const p = await context.newPage();
      await p.setViewportSize({ width, height: 900 });
      return p;
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Serious and critical axe-core violations on the page, as `rule: target` strings. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: new URL("../../node_modules/axe-core/axe.min.js", import.meta.url).pathname });
  const v = await page.evaluate(async () => {
    const r = await (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } })
      .axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((x) => ({ id: x.id, impact: x.impact, targets: x.nodes.map((n) => n.target.join(" ")) }));
  });
  return v.filter((x) => x.impact === "serious" || x.impact === "critical").map((x) => `${x.id}: ${x.targets.join(", ")}`);
}
