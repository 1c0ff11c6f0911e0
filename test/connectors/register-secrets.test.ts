/**
 * `POST /connectors/register` (the service `cairn connect` calls) checks the secret files a config names before the
 * config is written: a loose mode is refused now, not first at sync; a path that is not a small regular file is
 * refused without being read.
 */
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useConnectorMemory } from "./_connector-memory.ts";

const open = useConnectorMemory();
const github = (keyFile: string) => ({ app_id: "1", installation_id: "2", key_file: keyFile, repos: ["acme/widgets"] });

describe("connector registration checks secret files", () => {
  it("answers 400 insecure_file_mode for a 0644 key file and writes no config", async () => {
    const t = await open();
    const key = join(t.dir, "app.pem");
    writeFileSync(key, "-----BEGIN RSA PRIVATE KEY-----\n");
    chmodSync(key, 0o644);
    const r = await t.req("POST", "/connectors/register", { kind: "github", instance: "main", config: github(key) });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatchObject({ code: "insecure_file_mode", message: "The connector secret file has mode 0644; chmod 600 it (owner-only is required)" });
    expect(existsSync(join(t.dir, "config", "connectors", "github-main.json"))).toBe(false);
    expect((await (await t.req("GET", "/connectors")).json()).connectors).toEqual([]);
  });

  it("refuses a secret path that is a directory or over 1 MiB, without reading it", async () => {
    const t = await open();
    const dir = join(t.dir, "keys");
    mkdirSync(dir, { mode: 0o700 });
    const big = join(t.dir, "big.token");
    writeFileSync(big, "x".repeat(2 * 1024 * 1024), { mode: 0o600 });
    for (const path of [dir, big]) {
      const r = await t.req("POST", "/connectors/register", { kind: "zendesk", instance: "acme", config: { base_url: "https://acme.zendesk.com", email: "a@acme.example", token_file: path } });
      expect(r.status).toBe(400);
      expect((await r.json()).error).toMatchObject({ code: "connector_config_unreadable", message: "The connector secret file is not a regular file of at most 1 MiB" });
    }
    expect(existsSync(join(t.dir, "config", "connectors", "zendesk-acme.json"))).toBe(false);
  });
});
