import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function open(env: Record<string, string> = {}) {
  const dir = tempDir();
  t = await openTestMemory({ CAIRN_CONFIG_DIR: join(dir, "config"), ...env }, { connectorFiles }, dir);
  return t;
}
const config = (dir: string) => ({ api_base_url: "https://ghe.example.com/api/v3", app_id: "1", installation_id: "2", key_file: join(dir, "app.pem"), repos: ["acme/widgets"] });

describe("connector routes", () => {
  it("POST /connectors/register writes a 0600 config and GET /connectors lists the row", async () => {
    const t = await open();
    const r = await t.req("POST", "/connectors/register", { kind: "github", instance: "main", config: config(t.dir) });
    expect(r.status).toBe(201);
    const body = await r.json();
    expect(body.connector).toMatchObject({ kind: "github", instance: "main", state: "registered" });
    // SPEC §4: optional fields are omitted, never null.
    expect(body.connector).not.toHaveProperty("last_sync_at");
    expect(body.connector).not.toHaveProperty("last_error");
    expect(body.config_path).toBe(join(t.dir, "config", "connectors", "github-main.json"));
    expect(statSync(body.config_path).mode & 0o777).toBe(0o600);
    expect((await t.req("POST", "/connectors/register", { kind: "github", instance: "main", config: config(t.dir) })).status).toBe(200);
    const list = await (await t.req("GET", "/connectors")).json();
    expect(list.connectors).toHaveLength(1);
    expect(list.connectors[0]).toMatchObject({ id: body.connector.id, kind: "github", instance: "main", state: "registered" });
  });

  it("refuses an unknown kind, a bad instance and a config the vendor module rejects with 400", async () => {
    const t = await open();
    const unknown = await t.req("POST", "/connectors/register", { kind: "gitlab" });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error.code).toBe("connector_kind_unknown");
    const bad = await t.req("POST", "/connectors/register", { kind: "github", instance: "../etc", config: config(t.dir) });
    expect(bad.status).toBe(400);
    const noRepo = await t.req("POST", "/connectors/register", { kind: "github", config: { ...config(t.dir), repos: [] } });
    expect(noRepo.status).toBe(400);
    expect((await noRepo.json()).error).toMatchObject({ code: "connector_config_invalid", message: 'GitHub config: "repos" must list owner/name entries' });
    expect((await (await t.req("GET", "/connectors")).json()).connectors).toEqual([]);
  });

  it("registers an existing config file only when it is 0600", async () => {
    const t = await open();
    const dir = join(t.dir, "config", "connectors");
    mkdirSync(dir, { recursive: true });
    const path = join(dir, "github-ops.json");
    writeFileSync(path, JSON.stringify(config(t.dir)));
    chmodSync(path, 0o644);
    const r = await t.req("POST", "/connectors/register", { kind: "github", instance: "ops" });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatchObject({ code: "insecure_file_mode", message: "The connector config has mode 0644; chmod 600 it (owner-only is required)" });
    chmodSync(path, 0o600);
    expect((await t.req("POST", "/connectors/register", { kind: "github", instance: "ops" })).status).toBe(201);
  });

  it("gates registration by family (CAIRN_CONNECTOR_FAMILIES)", async () => {
    const t = await open({ CAIRN_CONNECTOR_FAMILIES: "ticketing" });
    const r = await t.req("POST", "/connectors/register", { kind: "github", config: config(t.dir) });
    expect(r.status).toBe(403);
    expect((await r.json()).error.code).toBe("connector_family_disabled");
  });
});
