/** Registering the case connector kinds over HTTP: each vendor module validates its config before it is written. */
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useConnectorMemory } from "./_connector-memory.ts";

const open = useConnectorMemory();

const valid = {
  zendesk: { base_url: "https://acme.zendesk.com", email: "agent@acme.example", token_file: "/secrets/zd" },
  freshdesk: { base_url: "https://acme.freshdesk.com", api_key_file: "/secrets/fd" },
  jira: { base_url: "https://acme.atlassian.net", email: "agent@acme.example", token_file: "/secrets/jira" },
  custom: { base_url: "https://shim.example", auth_type: "bearer", case_list_path: "/v1/cases", case_detail_path: "/v1/cases/{id}", source: "helpdesk", token_file: "/secrets/shim" },
} as const;

describe("case connector registration", () => {
  it("registers each case kind and writes its config 0600", async () => {
    const t = await open();
    for (const [kind, config] of Object.entries(valid)) {
      const r = await t.req("POST", "/connectors/register", { kind, instance: "acme", config });
      expect(r.status).toBe(201);
      const body = await r.json();
      expect(body.connector).toMatchObject({ kind, instance: "acme", state: "registered" });
      expect(statSync(body.config_path).mode & 0o777).toBe(0o600);
    }
    expect((await (await t.req("GET", "/connectors")).json()).connectors.map((c: { kind: string }) => c.kind).sort()).toEqual(["custom", "freshdesk", "jira", "zendesk"]);
  });

  it("refuses a config its vendor module rejects with 400 connector_config_invalid, writing nothing", async () => {
    const t = await open();
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["zendesk", { ...valid.zendesk, auth_type: "password" }, /auth_type must be api_token or oauth/],
      ["zendesk", { ...valid.zendesk, email: undefined }, /email must be a non-empty string/],
      ["freshdesk", { base_url: "https://acme.freshdesk.com" }, /api_key_file/],
      ["freshdesk", { ...valid.freshdesk, base_url: "ftp://acme.example" }, /base_url must be an http\(s\) URL/],
      ["jira", { ...valid.jira, org: "a:b" }, /org "a:b" must match/],
      ["custom", { ...valid.custom, source: "zendesk" }, /not be a built-in vendor label/],
      ["custom", { ...valid.custom, case_list_path: "//evil.example/cases" }, /single \//],
      ["custom", { ...valid.custom, case_detail_path: "/v1/cases" }, /must contain \{id\}/],
    ];
    for (const [kind, config, message] of cases) {
      const r = await t.req("POST", "/connectors/register", { kind, instance: "bad", config });
      expect(r.status).toBe(400);
      const err = (await r.json()).error;
      expect(err.code).toBe("connector_config_invalid");
      expect(err.message).toMatch(message);
      expect(existsSync(join(t.dir, "config", "connectors", `${kind}-bad.json`))).toBe(false);
    }
  });
});
