/**
 * Issue 18 "Done means": real processes on loopback — a Cairn server (`bin/cairn.mjs serve`), the gateway
 * (`bin/cairn-gateway.mjs serve`) and the fake signal-cli (a loopback server in the test process). A message
 * arrives, becomes a case note on the service, a human approves a reply, the drain sends it through the fake.
 * Also: the bin refuses a group-readable config and a remote bind, and `link` prints the QR code.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";
import { BRIDGE_TEXT, WEBHOOK_SECRET } from "../workflow/_setup.ts";
import { freePort, gatewayConfig, killChildren, ownerOnly, root, start, until } from "./_process.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

let fake: FakeSignalCli | undefined;
afterEach(async () => {
  killChildren();
  await fake?.close();
  fake = undefined;
});

describe("cairn-gateway processes", () => {
  it("refuses a group-readable config and a non-loopback bind without SIGNAL_GATEWAY_ALLOW_REMOTE=1", async () => {
    const dir = tempDir();
    const bad = start("cairn-gateway.mjs", ["serve", "--config", gatewayConfig(dir, { servicePort: 1, rpcUrl: "http://127.0.0.1:1" }, 0o640)]);
    expect(await bad.exit).toBe(1);
    expect(bad.out()).toMatch(/config refused: gateway config: the file must be owner-only/);
    const remote = start("cairn-gateway.mjs", ["serve", "--config", gatewayConfig(dir, { servicePort: 1, rpcUrl: "http://127.0.0.1:1", server: { bind: "0.0.0.0", auth_token: "t" } })]);
    expect(await remote.exit).toBe(1);
    expect(remote.out()).toMatch(/SIGNAL_GATEWAY_ALLOW_REMOTE=1/);
  }, 60_000);

  it("serve exits 1 with a clear message when the mount fails 5 times (nothing listens at service.base_url)", async () => {
    fake = await startFakeSignalCli();
    const dir = tempDir();
    const gwPort = await freePort();
    const gw = start("cairn-gateway.mjs", ["serve", "--config", gatewayConfig(dir, { servicePort: await freePort(), rpcUrl: fake.url, port: gwPort })]);
    expect(await gw.exit).toBe(1);
    expect(gw.out().match(/"msg":"mount registration failed"/g)).toHaveLength(5);
    expect(gw.out()).toMatch(/cairn-gateway: mount registration failed after 5 attempts .*CAIRN_CHANNEL_WEBHOOK_SECRET_FILE/);
    // It never served: the local API did not come up.
    await expect(fetch(`http://127.0.0.1:${gwPort}/v1/health`)).rejects.toThrow();
  }, 60_000);

  it("link prints the sgnl:// URI as a terminal QR code and finishes the link", async () => {
    fake = await startFakeSignalCli([]);
    const dir = tempDir();
    const link = start("cairn-gateway.mjs", ["link", "--config", gatewayConfig(dir, { servicePort: 1, rpcUrl: fake.url }), "--device-name", "cairn-test"]);
    expect(await link.exit).toBe(0);
    expect(link.out()).toContain("sgnl://linkdevice?uuid=fake-provisioning-id");
    expect(link.out()).toMatch(/[▀▄█]{10}/);
    expect(fake.calls.find((c) => c.method === "finishLink")?.params).toMatchObject({ deviceName: "cairn-test" });
  }, 60_000);

  it.each([
    ["an HTTP daemon (signal_cli.rpc_url)", "http"],
    ["a signal-cli it starts itself (signal_cli.path, jsonRpc on stdin/stdout)", "spawn"],
  ])("end to end over %s: the gateway mounts with no service token; inbound message → case note; approved reply → drained and sent", async (_name, mode) => {
    fake = await startFakeSignalCli();
    const dir = tempDir();
    const servicePort = await freePort();
    // The service requires a bearer: only the operator holds it. The gateway authenticates by the channel secret alone.
    const TOKEN = "operator-token-for-the-e2e-test";
    const svc = start("cairn.mjs", ["serve"], {
      BIND_PORT: String(servicePort), CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_EMBED_KIND: "none",
      AUTH_TOKEN_FILE: ownerOnly(join(dir, "token"), TOKEN),
      CAIRN_CHANNEL_WEBHOOK_SECRET_FILE: ownerOnly(join(dir, "channel.secret"), WEBHOOK_SECRET),
      CAIRN_CHANNEL_BRIDGE_CONFIG: ownerOnly(join(dir, "bridge.signal.json"), BRIDGE_TEXT),
    });
    const base = `http://127.0.0.1:${servicePort}`;
    await until("service start", async () => (await fetch(`${base}/health`)).ok || undefined, svc.out);
    const op = { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" };
    expect((await fetch(`${base}/workflow/events`)).status).toBe(401); // no loopback exemption with a token configured

    const gwPort = await freePort();
    const argsFile = join(dir, "signal-cli-args.jsonl");
    const signalCli = mode === "http" ? { rpc_url: fake.url } : { path: join(root, "test", "gateway", "fake-signal-cli-bin.mjs"), account: "+15550001234" };
    const gw = start("cairn-gateway.mjs", ["serve", "--config", gatewayConfig(dir, { servicePort, signalCli, port: gwPort })], { FAKE_SIGNAL_CLI_SOCKET: fake.socket, FAKE_SIGNAL_CLI_ARGS: argsFile });
    const health = await until("gateway start", async () => (await fetch(`http://127.0.0.1:${gwPort}/v1/health`)).json(), gw.out);
    expect(health).toEqual({ status: "ok", version: "1.0.0" });
    expect(gw.out()).toContain("mounted on the service");
    const mounted = await (await fetch(`${base}/workflow/events`, { headers: op })).json();
    expect(mounted.events.filter((e: { type: string }) => e.type === "plugin/mounted")).toHaveLength(1);
    expect(await (await fetch(`http://127.0.0.1:${gwPort}/v1/about`)).json()).toMatchObject({ linked: true, account: "+15*******34" });
    if (mode === "spawn") expect(readFileSync(argsFile, "utf8").trim()).toBe(JSON.stringify(["jsonRpc"]));

    const SENDER = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
    const run = await (await fetch(`${base}/workflow/runs`, { method: "POST", headers: op, body: JSON.stringify({ state_json: { case_ref: "crm:zendesk:acme:77", origin: "operator", channel: { kind: "signal", conversation_ref: SENDER } } }) })).json();
    const runId = run.run.id;
    expect(runId).toBeGreaterThan(0);
    // The gateway follows signal-cli's receive notifications; wait until it subscribed, then a message arrives.
    let ts = 1_750_000_000_000;
    await until("inbound note", async () => {
      fake!.push({ envelope: { sourceUuid: SENDER, timestamp: ++ts, dataMessage: { timestamp: ts, message: "My router keeps dropping" } } });
      await new Promise((r) => setTimeout(r, 300));
      const doc = await (await fetch(`${base}/workflow/runs/${runId}`, { headers: op })).text();
      return doc.includes("My router keeps dropping") ? doc : undefined;
    }, gw.out);

    const draft = await (await fetch(`${base}/workflow/runs/${runId}/channel-out`, { method: "POST", headers: op, body: JSON.stringify({ text: "Please restart the router." }) })).json();
    const prop = await (await fetch(`${base}/proposals/${draft.proposal_id}`, { headers: op })).json();
    const approved = await fetch(`${base}/proposals/${draft.proposal_id}/approve?digest=${prop.content_digest ?? prop.proposal?.content_digest}`, { method: "POST", headers: op });
    expect(approved.status).toBe(200);
    const sent = await until("drained send", async () => fake!.calls.find((c) => c.method === "send"), gw.out, 30_000);
    expect(sent.params).toEqual(mode === "http"
      ? { recipient: [SENDER], message: "Please restart the router." }
      : { account: "+15550001234", recipient: [SENDER], message: "Please restart the router." });
  }, 120_000);
});
