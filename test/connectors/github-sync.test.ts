import { chmodSync, statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { startServer } from "../outbound/_server.ts";
import { issue, REPO, useGithubFixture } from "./_github-fixture.ts";

const f = useGithubFixture();
const { register, later, recallTexts, chunkCount } = f;

describe("GitHub issues connector", () => {
  it("backfills issues with comments through the App token, paging by Link and waiting out a 429", async () => {
    const reg = await register();
    expect(reg.created).toBe(true);
    expect(statSync(reg.config_path).mode & 0o777).toBe(0o600);
    f.gh.state.rateLimitOnce = true;
    const s = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.error).toBeUndefined();
    expect(s).toMatchObject({ state: "idle", created: 4, revised: 0, pages: 3 });
    expect(f.waits).toEqual([60_000]); // Retry-After: 60, honoured through the injected sleep
    expect(f.gh.jwtErrors).toEqual([]);
    expect(f.gh.state.tokenExchanges).toBe(1);
    expect(await recallTexts("zephyrine login button")).toContain("zephyrine login button does nothing");
    expect(await recallTexts("quarkolith nightly")).toContain("Reproduced with the nightly build");
    expect(await recallTexts("pull request body")).not.toContain("pull request body"); // PRs are skipped
    const row = (await f.t.memory.db.client.execute("SELECT source, origin, meta FROM chunks WHERE content LIKE '%zephyrine%'")).rows[0];
    expect(row.source).toBe("markdown");
    expect(row.origin).toBe("imported");
    const meta = JSON.parse(String(row.meta));
    expect(meta.tags).toEqual(["bug"]);
    expect(String(meta.frontmatter)).toContain("https://github.com/acme/widgets/issues/1");
    // Only GETs besides the token exchange: nothing is written back.
    expect(f.gh.seen.filter((r) => r.method !== "GET").map((r) => r.url)).toEqual(["/app/installations/77/access_tokens"]);
    expect(f.gh.seen.find((r) => r.url.startsWith(`/repos/${REPO}/issues?`))!.url).toContain("state=all&sort=updated&direction=asc&per_page=100");
    const [listed] = await f.t.memory.connectors.list();
    expect(listed).toMatchObject({ kind: "github", instance: "main", state: "idle", records_total: 4 });
    expect(listed.last_sync_at).toBe(f.clock.toISOString());
  });

  it("a second sync changes nothing; an edit is a new revision; a deleted issue is swept", async () => {
    await register();
    await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    const n = await chunkCount();
    later();
    const again = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(again).toMatchObject({ state: "idle", records: 1, unchanged: 1, created: 0, revised: 0, deleted: 0, swept: 0 });
    expect(await chunkCount()).toBe(n);
    // Incremental: the second listing asked only for what changed since the newest issue seen.
    expect(f.gh.seen.filter((r) => r.url.includes("since=")).length).toBeGreaterThan(0);

    f.gh.issues.set(2, issue(2, "Dark mode", "Please add a solarized theme instead of plain dark mode.", { updated_at: "2026-03-09T10:00:00Z" }));
    later();
    const edited = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(edited).toMatchObject({ state: "idle", created: 0, revised: 1, swept: 1 });
    const texts = await recallTexts("dark mode settings solarized theme");
    expect(texts).toContain("solarized theme");
    expect(texts).not.toContain("settings page");

    f.gh.issues.delete(5); // deleted or transferred upstream
    later();
    const swept = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(swept).toMatchObject({ state: "idle", deleted: 1, swept: 1 });
    expect(await recallTexts("installation guide instal typo")).not.toContain("instal.");
    const tomb = await f.t.memory.db.client.execute("SELECT count(*) AS n FROM tombstones");
    expect(Number(tomb.rows[0].n)).toBe(2);
  });

  it("refuses a second sync within 300 s, naming the wait", async () => {
    await register();
    await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    later(100);
    await expect(f.t.memory.connectors.sync({ kind: "github", instance: "main" })).rejects.toThrow(/wait 200 s/);
  });

  it("refuses a config file readable by others", async () => {
    const reg = await register();
    chmodSync(reg.config_path, 0o644);
    await expect(f.t.memory.connectors.sync({ kind: "github", instance: "main" })).rejects.toMatchObject({ code: "insecure_file_mode" });
    expect(f.gh.seen).toHaveLength(0);
  });

  it("refuses a redirect and records a safe error", async () => {
    await register();
    f.gh.state.redirect = true;
    const s = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.state).toBe("error");
    expect(s.error).toMatch(/^refused: .*redirect/);
    const [row] = await f.t.memory.connectors.list();
    expect(row.state).toBe("error");
    expect(row.last_error).not.toMatch(/ghs_|Bearer/);
  });

  it("never contacts a host that is not in the config, even when a Link header points there", async () => {
    const other = await startServer((_req, res) => res.end("[]"));
    f.closers.push(other.close);
    await register();
    f.gh.state.nextOrigin = other.origin;
    const s = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.state).toBe("error");
    expect(s.error).toMatch(/origin_not_allowed/);
    expect(other.seen).toHaveLength(0);
  });

  it("a malformed page ends in state error; the rerun resumes from the committed cursor", async () => {
    await register();
    f.gh.state.malformedPage = 2;
    const s = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s).toMatchObject({ state: "error", created: 2, pages: 1 });
    expect(s.error).toBe(`malformed: GET ${f.gh.origin}/repos/${REPO}/issues: the answer is not valid JSON (HTTP 200)`);
    const [row] = await f.t.memory.connectors.list();
    expect(row).toMatchObject({ state: "error", resumable: true, records_total: 2 });
    f.gh.state.malformedPage = 0;
    f.gh.seen.length = 0;
    later();
    const rerun = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(rerun).toMatchObject({ state: "idle", created: 2 });
    expect(f.gh.seen.find((r) => r.url.startsWith(`/repos/${REPO}/issues?`))!.url).toContain("page=2");
  });
});
