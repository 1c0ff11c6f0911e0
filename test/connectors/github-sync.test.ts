import { chmodSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { startServer } from "../outbound/_server.ts";
import { appKeyPair, type FakeIssue, startFakeGithub } from "./_fake-github.ts";

const REPO = "acme/widgets";
let t: TestMemory;
let gh: Awaited<ReturnType<typeof startFakeGithub>>;
let clock: Date;
let waits: number[];
let pem: string;
const closers: (() => Promise<void>)[] = [];

function issue(n: number, title: string, body: string, extra: Partial<FakeIssue> = {}): FakeIssue {
  return { number: n, title, body, state: "open", labels: ["bug"], updated_at: `2026-03-0${n}T10:00:00Z`, comments: [], ...extra };
}

beforeEach(async () => {
  clock = new Date();
  waits = [];
  const keys = appKeyPair();
  pem = keys.pem;
  gh = await startFakeGithub({ publicKey: keys.publicKey, appId: "4242", installId: "77", repo: REPO, perPage: 2, now: () => clock });
  closers.push(gh.close);
  gh.issues.set(1, issue(1, "Login button broken", "The zephyrine login button does nothing on Safari."));
  gh.issues.set(2, issue(2, "Dark mode", "Please add a dark mode to the settings page.", { labels: ["enhancement", "ui"] }));
  gh.issues.set(3, issue(3, "Crash on export", "Exporting a quarkolith report crashes the app.", {
    comments: [{ body: "Reproduced with the nightly build.", login: "maint", created_at: "2026-03-03T11:00:00Z" }],
  }));
  gh.issues.set(4, issue(4, "Add CI", "pull request body", { pull_request: true }));
  gh.issues.set(5, issue(5, "Typo in docs", "The installation guide says instal.", { state: "closed" }));
  const dir = tempDir();
  t = await openTestMemory(
    { CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1", CAIRN_CONFIG_DIR: join(dir, "config") },
    { connectorFiles, connectorSleep: async (ms) => void waits.push(ms), clock: () => clock },
    dir,
  );
  closers.push(() => t.close());
  writeFileSync(join(t.dir, "app.pem"), pem, { mode: 0o600 });
});

afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c();
});

async function register(over: Record<string, unknown> = {}) {
  return await t.memory.connectors.register({
    kind: "github", instance: "main",
    config: { api_base_url: gh.origin, app_id: "4242", installation_id: "77", key_file: join(t.dir, "app.pem"), repos: [REPO], ...over },
  });
}
const later = (sec = 301) => void (clock = new Date(clock.getTime() + sec * 1000));
const recallTexts = async (query: string) => ((await (await t.req("POST", "/recall", { query, k: 5 })).json()).hits as { content: string }[]).map((h) => h.content).join("\n");
const chunkCount = async () => Number((await t.memory.db.client.execute("SELECT count(*) AS n FROM chunks")).rows[0].n);

describe("GitHub issues connector", () => {
  it("backfills issues with comments through the App token, paging by Link and waiting out a 429", async () => {
    const reg = await register();
    expect(reg.created).toBe(true);
    expect(statSync(reg.config_path).mode & 0o777).toBe(0o600);
    gh.state.rateLimitOnce = true;
    const s = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.error).toBeUndefined();
    expect(s).toMatchObject({ state: "idle", created: 4, revised: 0, pages: 3 });
    expect(waits).toEqual([60_000]); // Retry-After: 60, honoured through the injected sleep
    expect(gh.jwtErrors).toEqual([]);
    expect(gh.state.tokenExchanges).toBe(1);
    expect(await recallTexts("zephyrine login button")).toContain("zephyrine login button does nothing");
    expect(await recallTexts("quarkolith nightly")).toContain("Reproduced with the nightly build");
    expect(await recallTexts("pull request body")).not.toContain("pull request body"); // PRs are skipped
    const row = (await t.memory.db.client.execute("SELECT source, origin, meta FROM chunks WHERE content LIKE '%zephyrine%'")).rows[0];
    expect(row.source).toBe("markdown");
    expect(row.origin).toBe("imported");
    const meta = JSON.parse(String(row.meta));
    expect(meta.tags).toEqual(["bug"]);
    expect(String(meta.frontmatter)).toContain("https://github.com/acme/widgets/issues/1");
    // Only GETs besides the token exchange: nothing is written back.
    expect(gh.seen.filter((r) => r.method !== "GET").map((r) => r.url)).toEqual(["/app/installations/77/access_tokens"]);
    expect(gh.seen.find((r) => r.url.startsWith(`/repos/${REPO}/issues?`))!.url).toContain("state=all&sort=updated&direction=asc&per_page=100");
    const [listed] = await t.memory.connectors.list();
    expect(listed).toMatchObject({ kind: "github", instance: "main", state: "idle", records_total: 4 });
    expect(listed.last_sync_at).toBe(clock.toISOString());
  });

  it("a second sync changes nothing; an edit is a new revision; a deleted issue is swept", async () => {
    await register();
    await t.memory.connectors.sync({ kind: "github", instance: "main" });
    const n = await chunkCount();
    later();
    const again = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(again).toMatchObject({ state: "idle", records: 1, unchanged: 1, created: 0, revised: 0, deleted: 0, swept: 0 });
    expect(await chunkCount()).toBe(n);
    // Incremental: the second listing asked only for what changed since the newest issue seen.
    expect(gh.seen.filter((r) => r.url.includes("since=")).length).toBeGreaterThan(0);

    gh.issues.set(2, issue(2, "Dark mode", "Please add a solarized theme instead of plain dark mode.", { updated_at: "2026-03-09T10:00:00Z" }));
    later();
    const edited = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(edited).toMatchObject({ state: "idle", created: 0, revised: 1, swept: 1 });
    const texts = await recallTexts("dark mode settings solarized theme");
    expect(texts).toContain("solarized theme");
    expect(texts).not.toContain("settings page");

    gh.issues.delete(5); // deleted or transferred upstream
    later();
    const swept = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(swept).toMatchObject({ state: "idle", deleted: 1, swept: 1 });
    expect(await recallTexts("installation guide instal typo")).not.toContain("instal.");
    const tomb = await t.memory.db.client.execute("SELECT count(*) AS n FROM tombstones");
    expect(Number(tomb.rows[0].n)).toBe(2);
  });

  it("refuses a second sync within 300 s, naming the wait", async () => {
    await register();
    await t.memory.connectors.sync({ kind: "github", instance: "main" });
    later(100);
    await expect(t.memory.connectors.sync({ kind: "github", instance: "main" })).rejects.toThrow(/wait 200 s/);
  });

  it("refuses a config file readable by others", async () => {
    const reg = await register();
    chmodSync(reg.config_path, 0o644);
    await expect(t.memory.connectors.sync({ kind: "github", instance: "main" })).rejects.toMatchObject({ code: "insecure_file_mode" });
    expect(gh.seen).toHaveLength(0);
  });

  it("refuses a redirect and records a safe error", async () => {
    await register();
    gh.state.redirect = true;
    const s = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.state).toBe("error");
    expect(s.error).toMatch(/^refused: .*redirect/);
    const [row] = await t.memory.connectors.list();
    expect(row.state).toBe("error");
    expect(row.last_error).not.toMatch(/ghs_|Bearer/);
  });

  it("never contacts a host that is not in the config, even when a Link header points there", async () => {
    const other = await startServer((_req, res) => res.end("[]"));
    closers.push(other.close);
    await register();
    gh.state.nextOrigin = other.origin;
    const s = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.state).toBe("error");
    expect(s.error).toMatch(/origin_not_allowed/);
    expect(other.seen).toHaveLength(0);
  });

  it("a malformed page ends in state error; the rerun resumes from the committed cursor", async () => {
    await register();
    gh.state.malformedPage = 2;
    const s = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s).toMatchObject({ state: "error", created: 2, pages: 1 });
    expect(s.error).toBe(`malformed: GET ${gh.origin}/repos/${REPO}/issues: the answer is not valid JSON (HTTP 200)`);
    const [row] = await t.memory.connectors.list();
    expect(row).toMatchObject({ state: "error", resumable: true, records_total: 2 });
    gh.state.malformedPage = 0;
    gh.seen.length = 0;
    later();
    const rerun = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(rerun).toMatchObject({ state: "idle", created: 2 });
    expect(gh.seen.find((r) => r.url.startsWith(`/repos/${REPO}/issues?`))!.url).toContain("page=2");
  });
});
