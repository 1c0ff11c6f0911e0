import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cairn, lastLine } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";
import { appKeyPair, startFakeGithub } from "./_fake-github.ts";

const REPO = "acme/widgets";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe("cairn connect / sync / connector-status", () => {
  it("registers GitHub, syncs it with a summary line, refuses a resync within 300 s, and lists the registry", async () => {
    const keys = appKeyPair();
    const gh = await startFakeGithub({ publicKey: keys.publicKey, appId: "9", installId: "10", repo: REPO });
    closers.push(gh.close);
    for (let n = 1; n <= 3; n++) {
      gh.issues.set(n, { number: n, title: `Issue ${n}`, body: `Body of issue ${n} about the flux capacitor`, state: "open", labels: [], updated_at: `2026-02-0${n}T00:00:00Z`, comments: [] });
    }
    const dir = tempDir();
    writeFileSync(join(dir, "app.pem"), keys.pem, { mode: 0o600 });
    const env = { CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: join(dir, "config"), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1" };

    const connect = await cairn(["connect", "github", "--app-id", "9", "--install-id", "10", "--key-file", join(dir, "app.pem"), "--repo", REPO, "--api-base-url", gh.origin, "--instance", "main"], env);
    expect(connect.stderr).toBe("");
    expect(connect.code).toBe(0);
    expect(lastLine(connect.stdout)).toMatch(/^github\/main: registered \(id 1\); config .*github-main\.json$/);

    const sync = await cairn(["sync", "github", "--instance", "main"], env);
    expect(sync.code).toBe(0);
    expect(lastLine(sync.stdout)).toMatch(/^github\/main: idle, 3 records in 1 pages \(3 new, 0 revised, 0 unchanged, 0 deleted, 0 swept\) in \d+\.\d s$/);

    const soon = await cairn(["sync", "github", "--config", join(dir, "config", "connectors", "github-main.json")], env);
    expect(soon.code).toBe(1);
    expect(soon.stderr).toMatch(/sync_too_soon: .*wait \d+ s/);

    const status = await cairn(["connector-status", "--json"], env);
    expect(status.code).toBe(0);
    const rows = JSON.parse(lastLine(status.stdout)).connectors;
    expect(rows).toEqual([expect.objectContaining({ kind: "github", instance: "main", state: "idle", records_total: 3 })]);
    expect(rows[0]).not.toHaveProperty("last_error");
  }, 480_000);

  it("exits 1 with the safe error when the vendor fails, and refuses a 0644 config", async () => {
    const keys = appKeyPair();
    const gh = await startFakeGithub({ publicKey: keys.publicKey, appId: "9", installId: "10", repo: REPO });
    closers.push(gh.close);
    gh.state.redirect = true;
    const dir = tempDir();
    writeFileSync(join(dir, "app.pem"), keys.pem, { mode: 0o600 });
    const env = { CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: join(dir, "config"), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1" };
    expect((await cairn(["connect", "github", "--app-id", "9", "--install-id", "10", "--key-file", join(dir, "app.pem"), "--repo", REPO, "--api-base-url", gh.origin], env)).code).toBe(0);
    const failed = await cairn(["sync", "github"], env);
    expect(failed.code).toBe(1);
    expect(lastLine(failed.stdout)).toMatch(/^github\/default: error, .*: refused: GET .* refused \(redirect\)$/);
    const status = await cairn(["connector-status"], env);
    expect(status.stdout).toMatch(/github\/default\terror\tlast sync never/);
    chmodSync(join(dir, "config", "connectors", "github-default.json"), 0o644);
    const loose = await cairn(["sync", "github", "--config", join(dir, "config", "connectors", "github-default.json")], env);
    expect(loose.code).not.toBe(0);
    expect(loose.stderr).toMatch(/insecure_file_mode: .*mode 0644/);
  }, 480_000);
});
