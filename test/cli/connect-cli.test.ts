/**
 * `cairn connect` checks the secret files a connector config names when it registers, not first at sync: a key file
 * group- or world-readable is refused before the config is written (the HTTP register route calls the same service).
 */
import { chmodSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cairnInProcess } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";
import { appKeyPair } from "../connectors/_fake-github.ts";

describe("cairn connect", { timeout: 300_000 }, () => {
  it("refuses a GitHub App key file with mode 0644 at connect time, writing no config, and accepts it once 0600", async () => {
    const dir = tempDir();
    const key = join(dir, "app.pem");
    writeFileSync(key, appKeyPair().pem, { mode: 0o644 });
    chmodSync(key, 0o644);
    const env = { CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: join(dir, "config") };
    const args = ["connect", "github", "--app-id", "9", "--install-id", "10", "--key-file", key, "--repo", "acme/widgets", "--instance", "main"];

    const loose = await cairnInProcess(args, env);
    expect(loose.code).toBe(1);
    expect(loose.stderr.trim()).toBe("cairn: insecure_file_mode: The connector secret file has mode 0644; chmod 600 it (owner-only is required)");
    expect(existsSync(join(dir, "config", "connectors", "github-main.json"))).toBe(false);
    expect(JSON.parse((await cairnInProcess(["connector-status", "--json"], env)).stdout).connectors).toEqual([]);

    chmodSync(key, 0o600);
    const ok = await cairnInProcess(args, env);
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^github\/main: registered \(id 1\); config .*github-main\.json$/m);
  });

  it("refuses a case connector's token file with mode 0640 given through --from", async () => {
    const dir = tempDir();
    const token = join(dir, "zendesk.token");
    writeFileSync(token, "secret-token\n");
    chmodSync(token, 0o640);
    const from = join(dir, "zendesk.json");
    writeFileSync(from, JSON.stringify({ base_url: "https://acme.zendesk.com", email: "agent@acme.example", token_file: token }));
    const env = { CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: join(dir, "config") };
    const r = await cairnInProcess(["connect", "zendesk", "--instance", "acme", "--from", from], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("insecure_file_mode: The connector secret file has mode 0640");
    expect(existsSync(join(dir, "config", "connectors", "zendesk-acme.json"))).toBe(false);
  });
});
