import { describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { ConfigError } from "../../src/config/read-var.ts";

describe("parseConfig (SPEC §1 Runtime rules)", () => {
  it("defaults to 127.0.0.1:8765, ./data/cairn.db and the open posture", () => {
    const c = parseConfig({});
    expect(c.bindAddr).toBe("127.0.0.1");
    expect(c.bindPort).toBe(8765);
    expect(c.dbPath).toBe("./data/cairn.db");
    expect(c.writePosture).toBe("open");
    expect(c.bindPublic).toBe(false);
  });

  it("refuses 0.0.0.0 unless BIND_PUBLIC=1", () => {
    expect(() => parseConfig({ BIND_ADDR: "0.0.0.0" })).toThrow(/BIND_PUBLIC=1/);
    // Issue 8: a public bind also needs a credential (an unauthenticated router is loopback-only).
    expect(parseConfig({ BIND_ADDR: "0.0.0.0", BIND_PUBLIC: "1", AUTH_TOKEN_FILE: "/run/secrets/cairn-token" }).bindAddr).toBe("0.0.0.0");
  });

  it.each(["abc", "80a", "-1", "0", "65536", "8765.5", "0x10"])("refuses malformed BIND_PORT %s, never picking a random port", (p) => {
    expect(() => parseConfig({ BIND_PORT: p })).toThrow(ConfigError);
    expect(() => parseConfig({ BIND_PORT: p })).toThrow(/BIND_PORT/);
  });

  it("accepts a well-formed port", () => {
    expect(parseConfig({ BIND_PORT: "9000" }).bindPort).toBe(9000);
  });

  it.each([
    ["BIND_PUBLIC", "maybe"],
    ["CAIRN_WRITE_POSTURE", "closed"],
    ["CAIRN_MAX_DOCS", "many"],
    ["CAIRN_MULTI_DB", "perhaps"],
    ["CAIRN_DB_URL", "postgres://x"],
    ["CAIRN_HEAP_GROWING_PERCENT", "-5"],
    ["CAIRN_HEAP_GROWING_PERCENT", "lots"],
  ])("refuses wrong-typed %s with a one-line message naming it", (name, value) => {
    let err: unknown;
    try {
      parseConfig({ [name]: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain(name);
    expect(msg).not.toContain("\n");
  });

  it("leaves V8's heap growth alone unless CAIRN_HEAP_GROWING_PERCENT asks", () => {
    expect(parseConfig({}).heapGrowingPercent).toBe(0);
    expect(parseConfig({ CAIRN_HEAP_GROWING_PERCENT: "20" }).heapGrowingPercent).toBe(20);
  });

  it("selects the database with CAIRN_DB_PATH and the posture with CAIRN_WRITE_POSTURE", () => {
    const c = parseConfig({ CAIRN_DB_PATH: "/tmp/x.db", CAIRN_WRITE_POSTURE: "review" });
    expect(c.dbPath).toBe("/tmp/x.db");
    expect(c.writePosture).toBe("review");
  });
});

describe("the model-provider lane's settings", () => {
  const key = { CAIRN_PROVIDER_KEY_FILE: "/nonexistent/provider.key" };
  it("names the provider after the URL's host by default, an IPv6 literal included", () => {
    const at = (url: string) => parseConfig({ CAIRN_PROVIDER_URL: url, ...key }).provider!.name;
    expect(at("http://llm.internal:8080/v1")).toBe("llm.internal:8080");
    expect(at("http://127.0.0.1:11434")).toBe("127.0.0.1:11434");
    expect(at("http://[::1]:8080/v1")).toBe("ipv6-::1:8080");
    expect(at("https://[fd00::5]/v1")).toBe("ipv6-fd00::5");
    expect(parseConfig({ CAIRN_PROVIDER_URL: "http://[::1]:8080/v1", CAIRN_PROVIDER_NAME: "local", ...key }).provider!.name).toBe("local");
    // An explicit name is still held to the label pattern.
    expect(() => parseConfig({ CAIRN_PROVIDER_URL: "http://[::1]:8080/v1", CAIRN_PROVIDER_NAME: "[::1]", ...key })).toThrow(/CAIRN_PROVIDER_NAME/);
  });
});
