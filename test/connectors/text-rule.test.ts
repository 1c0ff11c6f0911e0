/**
 * The text-field rule at the connector door (docs/limits.md "Text fields"): a
 * vendor record whose text holds a NUL or a lone surrogate is refused on its
 * own (counted and named in the sync summary), never stored cut, and never
 * stops the sync: the other records of its page are written and the cursor
 * moves on.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
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

describe("GitHub connector and the text-field rule", () => {
  it("refuses the one issue whose body holds a NUL, writes the others, and names it in the summary", async () => {
    gh.issues.set(2, issue(2, "Dark mode", "Please add\u0000 a dark mode to the settings page.", { labels: ["enhancement", "ui"] }));
    gh.issues.set(3, issue(3, "Crash \ud800 on export", "Exporting a report crashes the app."));
    await register();
    const s = await t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.error).toBeUndefined();
    expect(s).toMatchObject({ state: "idle", created: 2, records_refused: 2 });
    expect(s.refused).toEqual([
      { path: expect.stringContaining("2"), field: "markdown", reason: "nul" },
      { path: expect.stringContaining("3"), field: "markdown", reason: "lone_surrogate" },
    ]);
    expect(await chunkCount()).toBe(2);
    const stored = (await t.memory.db.client.execute("SELECT count(*) AS n FROM chunks WHERE instr(CAST(content AS BLOB), X'00') > 0")).rows[0];
    expect(Number(stored.n)).toBe(0);
  });
});
