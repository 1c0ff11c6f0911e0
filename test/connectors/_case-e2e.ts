/**
 * The end-to-end suite every case connector passes (issue 15): a real libSQL file, the real composition root and
 * its `memory.connectors.sync` (registry, 0600 config files, page commits, reconcile sweep, `applyCase`), against a
 * loopback vendor fake. Each vendor's test file calls `caseConnectorSuite` with its fake and config.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { REQUESTER, type Fake } from "./fakes/_fake.ts";

/** What a vendor gives the suite. */
export interface CaseVendor<F extends Fake> {
  kind: "zendesk" | "freshdesk" | "jira" | "custom";
  /** Starts the fake with `n` cases; `linkOrigin`, when given, is the origin the fake writes into its own links. */
  start(n: number, linkOrigin?: string): Promise<F>;
  /** The config, with secret files written under `dir`. */
  config(fake: F, dir: string): Record<string, unknown>;
  /** The source path of the `i`-th case (1-based). */
  path(i: number): string;
  /** Edits case `i` so that its text now contains `text`. */
  edit(fake: F, i: number, text: string): void;
  /** Deletes case `i` upstream. */
  remove(fake: F, i: number): void;
  /** A word in every case body (and in no title), for the recall check. */
  phrase: string;
  /** The CrmCase source label. */
  source: string;
}

const INSTANCE = "acme";

/** Registers the suite for `v`. */
export function caseConnectorSuite<F extends Fake>(v: CaseVendor<F>): void {
  const open: { t: TestMemory; fakes: Fake[] }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) {
      await Promise.all(o.fakes.map((f) => f.close()));
      await o.t.close();
    }
  });

  async function setup(n: number, o: { linkOrigin?: string } = {}) {
    const dir = tempDir("cairn-case-e2e-");
    const cfgDir = join(dir, "cfg");
    mkdirSync(join(cfgDir, "connectors"), { recursive: true, mode: 0o700 });
    let now = Date.parse("2026-11-25T12:00:00Z");
    const t = await openTestMemory(
      { CAIRN_CONFIG_DIR: cfgDir, CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1", CAIRN_WRITE_POSTURE: "review" },
      { clock: () => new Date(now), connectorFiles, connectorSleep: async () => {} }, dir,
    );
    const fake = await v.start(n, o.linkOrigin);
    open.push({ t, fakes: [fake] });
    const configPath = join(cfgDir, "connectors", `${v.kind}-${INSTANCE}.json`);
    writeFileSync(configPath, JSON.stringify(v.config(fake, join(cfgDir, "connectors")), null, 2), { mode: 0o600 });
    const sync = () => t.memory.connectors.sync({ kind: v.kind, instance: INSTANCE });
    /** Moves the clock past the SPEC §8 floor of 300 s. */
    const later = () => void (now += 301_000);
    const pending = async () => (await t.memory.review.list({ status: "pending", limit: 100, piiRead: true })).filter((p) => p.door === "/workflow/cases");
    const caseEvents = async () => (await t.memory.workflow.events({ limit: 1000, piiRead: true })).filter((e) => e.type.startsWith("crm/case/"));
    return { t, fake, configPath, sync, later, pending, caseEvents, track: (f: Fake) => open[open.length - 1]!.fakes.push(f) };
  }

  describe(`${v.kind} connector, end to end`, () => {
    it("first sync applies every case; a second sync changes nothing; only GETs reached the vendor", async () => {
      const s = await setup(5);
      s.fake.arm429();
      const first = await s.sync();
      expect(first).toMatchObject({ state: "idle", records: 5, created: 5, cases_applied: 5 });
      expect((await s.caseEvents()).length).toBe(5);
      const row = (await s.t.memory.connectors.list()).find((c) => c.kind === v.kind)!;
      expect(row).toMatchObject({ instance: INSTANCE, state: "idle" });
      expect(row).not.toHaveProperty("last_error");
      // SPEC §8: the case connector poll floor is 300 s; a sooner crank is refused with the wait named.
      await expect(s.sync()).rejects.toMatchObject({ code: "sync_too_soon", message: expect.stringMatching(/wait 300 s/) });
      s.later();
      const second = await s.sync();
      expect(second).toMatchObject({ state: "idle", created: 0, revised: 0, cases_applied: 0 });
      expect((await s.caseEvents()).length).toBe(5);
      expect(new Set(s.fake.seen.map((r) => r.method))).toEqual(new Set(["GET"]));
      expect(s.fake.seen.filter((r) => r.method === "GET").length).toBeGreaterThan(5);
    });

    it("an edit becomes a new revision: a new case envelope and a new proposal with the new text", async () => {
      const s = await setup(3);
      await s.sync();
      v.edit(s.fake, 2, "Resolved by rotating the signing key");
      s.later();
      const again = await s.sync();
      expect(again).toMatchObject({ state: "idle", revised: 1, cases_applied: 1 });
      const events = (await s.caseEvents()).filter((e) => String(e.payload.case_ref).endsWith(`:${v.path(2).split("/").pop()}`));
      expect(events).toHaveLength(2);
      expect(events[1]!.payload.updated_rev).not.toBe(events[0]!.payload.updated_rev);
      const texts = (await s.pending()).map((p) => p.content);
      expect(texts.filter((c) => c.includes("Resolved by rotating the signing key"))).toHaveLength(1);
    });

    it("under review posture case bodies land as pending proposals, never as memory", async () => {
      const s = await setup(3);
      await s.sync();
      const props = await s.pending();
      expect(props).toHaveLength(3);
      for (const p of props) expect(p).toMatchObject({ status: "pending", origin: "imported", untrusted: true });
      expect(props.every((p) => p.source?.startsWith(`crm:${v.source}:`))).toBe(true);
      expect(props.every((p) => p.content.includes(v.phrase))).toBe(true);
      const recall = await s.t.req("POST", "/recall", { query: v.phrase, limit: 10 });
      expect(recall.status).toBe(200);
      const hits = ((await recall.json()) as { hits?: unknown[] }).hits ?? [];
      expect(hits).toHaveLength(0);
    });

    it("a case deleted upstream is swept at the next sync", async () => {
      const s = await setup(4);
      await s.sync();
      v.remove(s.fake, 3);
      s.later();
      const again = await s.sync();
      expect(again).toMatchObject({ state: "idle", deleted: 1 });
      const rows = await s.t.memory.sources.list(`connector:${v.kind}`, INSTANCE);
      expect(rows.find((r) => r.path === v.path(3))?.state).not.toBe("active");
      expect(rows.filter((r) => r.state === "active").map((r) => r.path).sort()).toEqual([1, 2, 4].map((i) => v.path(i)).sort());
    });

    it("the requester's email, name and phone appear nowhere in the database file", async () => {
      const s = await setup(3);
      await s.sync();
      await s.t.memory.close();
      const bytes = [s.t.dbPath, `${s.t.dbPath}-wal`].filter(existsSync).map((p) => readFileSync(p).toString("latin1")).join("");
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes).toContain(`crm:${v.source}:`); // the cases are in there
      for (const s_ of [REQUESTER.email, REQUESTER.name, REQUESTER.phone]) expect(bytes.includes(s_)).toBe(false);
    });

    it("a config readable by others (0644) is refused before any request", async () => {
      const s = await setup(1);
      chmodSync(s.configPath, 0o644);
      await expect(s.sync()).rejects.toMatchObject({ code: "insecure_file_mode" });
      expect(s.fake.seen).toHaveLength(0);
    });

    it("a redirect is refused, not followed, and the registry shows the error", async () => {
      const s = await setup(2);
      const other = await v.start(1);
      s.track(other);
      s.fake.armRedirect(`${other.origin}/`);
      const out = await s.sync();
      expect(out.state).toBe("error");
      expect(out.error).toMatch(/refused \(redirect\)/);
      expect(other.seen).toHaveLength(0);
      expect((await s.t.memory.connectors.list()).find((c) => c.kind === v.kind)).toMatchObject({ state: "error" });
    });

    it("a host named only in a vendor answer is never contacted", async () => {
      const other = await v.start(1);
      const s = await setup(3, { linkOrigin: other.origin });
      s.track(other);
      expect(await s.sync()).toMatchObject({ state: "idle", records: 3 });
      expect(other.seen).toHaveLength(0);
    });
  });
}

/** Writes a 0600 secret file under `dir` and returns its path. */
export function secret(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, `${text}\n`, { mode: 0o600 });
  return p;
}
