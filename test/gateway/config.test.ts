/** Gateway config loading (SPEC §5 item 10, §8): owner-only files, remote-bind refusal, defaults and floors. */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadGatewayConfig } from "../../src/gateway/config.ts";
import { readSecretFile } from "../../src/runtime/platform.ts";

let dir: string;
const bridge = '{"kind":"signal"}\n';

async function file(name: string, text: string, mode = 0o600): Promise<string> {
  const p = join(dir, name);
  await writeFile(p, text);
  await chmod(p, mode);
  return p;
}
async function config(over: Record<string, unknown> = {}, mode = 0o600): Promise<string> {
  const doc = {
    signal_cli: { rpc_url: "http://127.0.0.1:7583", account: "+15550001234" },
    service: { base_url: "http://127.0.0.1:3000/", webhook_secret_file: await file("secret", "whsec_c2VjcmV0c2VjcmV0\n") },
    bridge_config_path: await file("bridge.signal.json", bridge),
    ...over,
  };
  return await file("gateway.json", JSON.stringify(doc), mode);
}
const load = (path: string, env: Record<string, string> = {}) => loadGatewayConfig(path, { read: readSecretFile, env });

beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), "gw-"))));
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe("gateway config", () => {
  it("defaults: loopback 127.0.0.1:8080, no token, drain 30 s; digest of the bridge bytes", async () => {
    const c = await load(await config());
    expect(c.server).toEqual({ bind: "127.0.0.1", port: 8080, authToken: null });
    expect(c.drainIntervalSecs).toBe(30);
    expect(c.service).toEqual({ baseUrl: "http://127.0.0.1:3000", webhookSecret: "whsec_c2VjcmV0c2VjcmV0" });
    expect(c.bridgeConfigSha256).toBe(createHash("sha256").update(bridge).digest("hex"));
  });

  it("drain_interval_secs is floored to 5; an empty auth_token counts as none", async () => {
    const c = await load(await config({ drain_interval_secs: 1, server: { auth_token: "" } }));
    expect(c.drainIntervalSecs).toBe(5);
    expect(c.server.authToken).toBeNull();
  });

  it("signal_cli: connect over HTTP, a UNIX socket or TCP, or start signal-cli from its path", async () => {
    expect((await load(await config())).signalCli).toEqual({ transport: { kind: "http", url: "http://127.0.0.1:7583" }, account: "+15550001234" });
    expect((await load(await config({ signal_cli: { socket: "/run/user/1000/signal-cli/socket" } }))).signalCli).toEqual({ transport: { kind: "socket", path: "/run/user/1000/signal-cli/socket" }, account: null });
    expect((await load(await config({ signal_cli: { tcp: "[::1]:7583" } }))).signalCli.transport).toEqual({ kind: "tcp", host: "::1", port: 7583 });
    expect((await load(await config({ signal_cli: { path: "/opt/signal-cli/bin/signal-cli", account: "+15550001234", data_dir: "/var/lib/signal" } }))).signalCli)
      .toEqual({ transport: { kind: "spawn", path: "/opt/signal-cli/bin/signal-cli", dataDir: "/var/lib/signal" }, account: "+15550001234" });
  });

  it.each([0o640, 0o604, 0o644, 0o660])("refuses a gateway config with mode %o", async (mode) => {
    await expect(load(await config({}, mode))).rejects.toThrow(/gateway config: the file must be owner-only/);
  });

  it("refuses a bridge config or a secret file with group/world bits", async () => {
    const p = await config();
    await chmod(join(dir, "bridge.signal.json"), 0o644);
    await expect(load(p)).rejects.toThrow(/bridge_config_path: the file must be owner-only/);
    await chmod(join(dir, "bridge.signal.json"), 0o600);
    await chmod(join(dir, "secret"), 0o640);
    await expect(load(p)).rejects.toThrow(/service.webhook_secret_file: the file must be owner-only/);
  });

  it("refuses a non-loopback bind without SIGNAL_GATEWAY_ALLOW_REMOTE=1 plus a token", async () => {
    const open = await config({ server: { bind: "0.0.0.0" } });
    await expect(load(open)).rejects.toThrow(/SIGNAL_GATEWAY_ALLOW_REMOTE=1/);
    await expect(load(open, { SIGNAL_GATEWAY_ALLOW_REMOTE: "1" })).rejects.toThrow(/server.auth_token/);
    const empty = await config({ server: { bind: "0.0.0.0", auth_token: "" } });
    await expect(load(empty, { SIGNAL_GATEWAY_ALLOW_REMOTE: "1" })).rejects.toThrow(/server.auth_token/);
    const ok = await config({ server: { bind: "0.0.0.0", auth_token: "tok" } });
    await expect(load(ok)).rejects.toThrow(/SIGNAL_GATEWAY_ALLOW_REMOTE/);
    expect((await load(ok, { SIGNAL_GATEWAY_ALLOW_REMOTE: "1" })).server).toEqual({ bind: "0.0.0.0", port: 8080, authToken: "tok" });
    expect((await load(await config({ server: { bind: "::1" } }))).server.bind).toBe("::1");
  });

  it.each([
    [{ signal_cli: { rpc_url: "ftp://x" } }, /signal_cli.rpc_url/],
    [{ signal_cli: {} }, /signal_cli: set exactly one of rpc_url, socket, tcp or path/],
    [{ signal_cli: { rpc_url: "http://127.0.0.1:1", socket: "/run/signal-cli/socket" } }, /exactly one/],
    [{ signal_cli: { tcp: "localhost" } }, /signal_cli.tcp: must be HOST:PORT/],
    [{ signal_cli: { tcp: "localhost:0" } }, /signal_cli.tcp/],
    [{ signal_cli: { path: "/usr/local/bin/signal-cli" } }, /signal_cli.account: required with signal_cli.path/],
    [{ signal_cli: { socket: "/s", data_dir: "/d" } }, /signal_cli.data_dir: only with signal_cli.path/],
    [{ signal_cli: { rpc_url: "http://127.0.0.1:1", account: "15550001234" } }, /signal_cli.account/],
    [{ server: { port: 70000 } }, /server.port/],
    // Like the service (SPEC §1: never a random port), port 0 is refused rather than bound to whatever is free.
    [{ server: { port: 0 } }, /server.port/],
    [{ max_sends_per_second: 0 }, /max_sends_per_second/],
    [{ service: { base_url: "http://x" } }, /service.webhook_secret_file/],
    [{ bridge_config_path: "/nonexistent/bridge.json" }, /bridge_config_path: the file cannot be read/],
  ])("refuses %j", async (over, msg) => {
    await expect(load(await config(over))).rejects.toThrow(msg);
  });

  it("refuses a file that is not JSON", async () => {
    await expect(load(await file("bad.json", "{nope"))).rejects.toThrow(/not valid JSON/);
  });
});
