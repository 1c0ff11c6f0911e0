/**
 * The GitHub connector fixture shared by the sync tests: a loopback fake GitHub seeded with five issues (one a pull
 * request, one closed, pages of two), a fresh memory whose clock and connector sleep the test controls, and the App
 * key written as a 0600 file. `useGithubFixture()` opens it before each test and closes it (and anything pushed on
 * `closers`) after.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { appKeyPair, type FakeIssue, startFakeGithub } from "./_fake-github.ts";

/** The repository the fake serves. */
export const REPO = "acme/widgets";

/** One fake issue with the seed's defaults (open, labelled bug, updated on 2026-03-0n). */
export function issue(n: number, title: string, body: string, extra: Partial<FakeIssue> = {}): FakeIssue {
  return { number: n, title, body, state: "open", labels: ["bug"], updated_at: `2026-03-0${n}T10:00:00Z`, comments: [], ...extra };
}

/** The live state of the current test; the fields are replaced before each test. */
export interface GithubFixture {
  t: TestMemory;
  gh: Awaited<ReturnType<typeof startFakeGithub>>;
  /** The memory's clock; `later` moves it. */
  clock: Date;
  /** The waits the connector asked its sleep for. */
  waits: number[];
  /** Closed in reverse order after each test. */
  closers: (() => Promise<void>)[];
  /** Registers the GitHub connector `main` against the fake, with `over` merged into its config. */
  register(over?: Record<string, unknown>): ReturnType<TestMemory["memory"]["connectors"]["register"]>;
  /** Moves the clock `sec` seconds on (default: past the 300 s resync guard). */
  later(sec?: number): void;
  /** The contents of the top five recall hits, one a line. */
  recallTexts(query: string): Promise<string>;
  /** How many chunks the store holds. */
  chunkCount(): Promise<number>;
}

/** Installs the beforeEach/afterEach pair and returns the fixture they fill. */
export function useGithubFixture(): GithubFixture {
  // The fields start empty: the beforeEach below fills them before any test reads them.
  const f: GithubFixture = {
    t: null!, gh: null!, clock: new Date(), waits: [], closers: [],
    register: async (over = {}) => await f.t.memory.connectors.register({
      kind: "github", instance: "main",
      config: { api_base_url: f.gh.origin, app_id: "4242", installation_id: "77", key_file: join(f.t.dir, "app.pem"), repos: [REPO], ...over },
    }),
    later: (sec = 301) => void (f.clock = new Date(f.clock.getTime() + sec * 1000)),
    recallTexts: async (query) => ((await (await f.t.req("POST", "/recall", { query, k: 5 })).json()).hits as { content: string }[]).map((h) => h.content).join("\n"),
    chunkCount: async () => Number((await f.t.memory.db.client.execute("SELECT count(*) AS n FROM chunks")).rows[0].n),
  };

  beforeEach(async () => {
    f.clock = new Date();
    f.waits = [];
    const keys = appKeyPair();
    f.gh = await startFakeGithub({ publicKey: keys.publicKey, appId: "4242", installId: "77", repo: REPO, perPage: 2, now: () => f.clock });
    f.closers.push(f.gh.close);
    f.gh.issues.set(1, issue(1, "Login button broken", "The zephyrine login button does nothing on Safari."));
    f.gh.issues.set(2, issue(2, "Dark mode", "Please add a dark mode to the settings page.", { labels: ["enhancement", "ui"] }));
    f.gh.issues.set(3, issue(3, "Crash on export", "Exporting a quarkolith report crashes the app.", {
      comments: [{ body: "Reproduced with the nightly build.", login: "maint", created_at: "2026-03-03T11:00:00Z" }],
    }));
    f.gh.issues.set(4, issue(4, "Add CI", "pull request body", { pull_request: true }));
    f.gh.issues.set(5, issue(5, "Typo in docs", "The installation guide says instal.", { state: "closed" }));
    const dir = tempDir();
    f.t = await openTestMemory(
      { CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1", CAIRN_CONFIG_DIR: join(dir, "config") },
      { connectorFiles, connectorSleep: async (ms) => void f.waits.push(ms), clock: () => f.clock },
      dir,
    );
    f.closers.push(() => f.t.close());
    writeFileSync(join(f.t.dir, "app.pem"), keys.pem, { mode: 0o600 });
  });

  afterEach(async () => {
    for (const c of f.closers.splice(0).reverse()) await c();
  });

  return f;
}
