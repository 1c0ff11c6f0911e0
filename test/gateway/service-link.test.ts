/**
 * The gateway against a real Cairn server on loopback (real libSQL, real HTTP) and the
 * fake signal-cli: mount registration, inbound forwarding, the drain crank and its loud edge.
 */
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GatewayLog } from "../../src/gateway/app.ts";
import { sha256Hex } from "../../src/gateway/config.ts";
import { SendGate } from "../../src/gateway/limits.ts";
import { drainOnce, forwardInbound, registerMount, type ServiceLinkDeps } from "../../src/gateway/service-link.ts";
import { SignalCli } from "../../src/gateway/signal-cli.ts";
import { type RunningServer, serveFetch } from "../../src/runtime/platform.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { BRIDGE_TEXT, crmCase, WEBHOOK_SECRET } from "../workflow/_setup.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

const SENDER = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
let t: TestMemory;
let server: RunningServer;
let fake: FakeSignalCli;
let logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
let d: ServiceLinkDeps;

const ownerOnly = (p: string, text: string) => (writeFileSync(p, text), chmodSync(p, 0o600), p);

beforeEach(async () => {
  const dir = tempDir();
  // No service credential: the loopback caller is the local operator (SPEC §5 item 1), as a self-hoster runs it.
  t = await openTestMemory({
    CAIRN_EMBED_KIND: "none",
    CAIRN_CHANNEL_WEBHOOK_SECRET_FILE: ownerOnly(join(dir, "channel.secret"), WEBHOOK_SECRET),
    CAIRN_CHANNEL_BRIDGE_CONFIG: ownerOnly(join(dir, "bridge.signal.json"), BRIDGE_TEXT),
  }, {}, dir);
  server = await serveFetch((req, env) => t.app.fetch(req, env), { hostname: "127.0.0.1", port: 0 });
  fake = await startFakeSignalCli();
  logs = [];
  const log: GatewayLog = (level, msg, fields) => logs.push({ level, msg, fields });
  d = { baseUrl: `http://127.0.0.1:${server.port}`, webhookSecret: WEBHOOK_SECRET, signal: new SignalCli(fake.url, null), sends: new SendGate(2), log };
});
afterEach(async () => {
  await fake.close();
  await server.close();
  await t.close();
});

const dm = (text: string, ts: number, extra: Record<string, unknown> = {}) => ({ sourceUuid: SENDER, sourceNumber: "+4915112345678", timestamp: ts, dataMessage: { timestamp: ts, message: text, ...extra } });

async function approvedReply(run: number, text: string): Promise<void> {
  const draft = await (await t.req("POST", `/workflow/runs/${run}/channel-out`, { text })).json();
  const p = await t.memory.review.get(draft.proposal_id);
  expect((await t.req("POST", `/proposals/${draft.proposal_id}/approve?digest=${p!.content_digest}`)).status).toBe(200);
}

describe("gateway ↔ service", () => {
  it("mounts with the bridge digest; a wrong digest fails 5 times with linear backoff, then a clear error", async () => {
    expect((await registerMount({ ...d, bridgeConfigSha256: await sha256Hex(BRIDGE_TEXT) })).mount_id).toBeGreaterThan(0);
    const waits: number[] = [];
    await expect(registerMount({ ...d, bridgeConfigSha256: "0".repeat(64), backoffMs: 10, sleep: async (ms) => void waits.push(ms) }))
      .rejects.toThrow(/mount registration failed after 5 attempts \(HTTP 409 mount_evidence_mismatch\)/);
    expect(waits).toEqual([10, 20, 30, 40]);
  });

  it("the service client refuses redirects: a 307 toward the real service files nothing", async () => {
    const { createServer } = await import("node:http");
    const target = d.baseUrl;
    const redirector = createServer((q, r) => r.writeHead(307, { location: target + (q.url ?? "/") }).end());
    await new Promise<void>((r) => redirector.listen(0, "127.0.0.1", () => r()));
    const via = { ...d, baseUrl: `http://127.0.0.1:${(redirector.address() as { port: number }).port}` };
    await expect(forwardInbound(via, dm("redirected", 3000))).rejects.toThrow();
    await expect(registerMount({ ...via, bridgeConfigSha256: await sha256Hex(BRIDGE_TEXT), backoffMs: 0, sleep: async () => {} })).rejects.toThrow(/after 5 attempts/);
    expect(await t.memory.review.list({ status: "pending" })).toHaveLength(0);
    await new Promise((r) => redirector.close(() => r(undefined)));
  });

  it("forwards only direct text messages, signed; a redelivered message is not filed twice", async () => {
    expect(await forwardInbound(d, dm("my router drops", 1000))).toBe("proposed");
    expect(await forwardInbound(d, dm("group chatter", 1001, { groupInfo: { groupId: "g1" } }))).toBeNull();
    expect(await forwardInbound(d, dm("group v2", 1002, { groupV2: { id: "g2" } }))).toBeNull();
    expect(await forwardInbound(d, { sourceUuid: SENDER, timestamp: 1003, dataMessage: { timestamp: 1003, message: null } })).toBeNull();
    expect(await forwardInbound(d, dm("my router drops", 1000))).toBeNull();
    expect(logs).toEqual([{ level: "info", msg: "inbound message not filed", fields: { status: 409, code: "webhook_replayed" } }]);
    expect(logs.filter((l) => l.level === "error")).toEqual([]);
    // A bad secret is refused by the service and logged at error level.
    expect(await forwardInbound({ ...d, webhookSecret: "whsec_" + btoa("wrong") }, dm("x", 2000))).toBeNull();
    expect(logs.at(-1)).toMatchObject({ level: "error", fields: { status: 401 } });
  });

  it("the drain sends approved replies through signal-cli; a send failing after delivery is logged loudly and not retried", async () => {
    const run = (await t.memory.workflow.applyCase(crmCase("9"), { origin: "operator" })).run.id;
    await t.memory.workflow.openRun({ state_json: { case_ref: "crm:zendesk:acme:9", origin: "operator", channel: { kind: "signal", conversation_ref: SENDER } } });
    await approvedReply(run, "Try restarting the router.");
    expect(await drainOnce(d)).toEqual({ claimed: 1, sent: 1 });
    expect(fake.calls.filter((c) => c.method === "send")).toEqual([{ method: "send", params: { recipient: [SENDER], message: "Try restarting the router." } }]);
    expect(await drainOnce(d)).toEqual({ claimed: 0, sent: 0 });

    await approvedReply(run, "Second reply");
    fake.failSends = true;
    expect(await drainOnce(d)).toEqual({ claimed: 1, sent: 0 });
    expect(logs.find((l) => l.level === "error")?.msg).toMatch(/not retried/);
    fake.failSends = false;
    expect(await drainOnce(d)).toEqual({ claimed: 0, sent: 0 });
    expect(fake.calls.filter((c) => c.method === "send")).toHaveLength(2);
  });
});
