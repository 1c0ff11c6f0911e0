import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseConfig } from "../../src/config/parse-config.ts";
import { createErasureSender } from "../../src/outbound/erasure-webhook.ts";
import { createOutboundClient } from "../../src/outbound/outbound-client.ts";
import { rfc3339, signWebhook, verifyWebhook } from "../../src/outbound/webhook-signature.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";
import { startServer } from "./_server.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
let t: TestMemory | undefined;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await t?.close();
  t = undefined;
  for (const c of closers.splice(0)) await c();
});

function secretFile(dir: string, name = "whsec"): string {
  const p = join(dir, name);
  writeFileSync(p, SECRET);
  chmodSync(p, 0o600);
  return p;
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A loopback sink answering 204, and a memory whose erasure webhook points at it. */
async function erasureSink() {
  const sink = await startServer((_r, res) => res.writeHead(204).end());
  closers.push(sink.close);
  const dir = tempDir();
  const mem = await openTestMemory({
    CAIRN_ERASURE_WEBHOOK_URL: `${sink.origin}/erased`, CAIRN_ERASURE_WEBHOOK_SECRET_FILE: secretFile(dir), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1",
  }, {}, dir);
  t = mem;
  return { sink, mem };
}

describe("erasure webhook (SPEC §6)", () => {
  it("fires a signed notice after emitErasure, verifiable with the shared secret", async () => {
    const { sink, mem } = await erasureSink();
    const heard: unknown[] = [];
    mem.memory.onErasure((n) => void heard.push(n));
    await mem.memory.emitErasure({ certificate_id: "cert-1", subject_hash: "ab12", deleted: 3 });
    expect(heard).toEqual([{ certificate_id: "cert-1", subject_hash: "ab12", deleted: 3 }]);
    expect(sink.seen).toHaveLength(1);
    const got = sink.seen[0]!;
    expect([got.method, got.url]).toEqual(["POST", "/erased"]);
    expect(String(got.headers["webhook-timestamp"])).toMatch(RFC3339);
    const v = await verifyWebhook(SECRET, got.headers as Record<string, string>, got.body, { now: new Date() });
    expect(v.ok).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ type: "erasure.completed", data: { certificate_id: "cert-1", deleted: 3 } });
    expect(mem.memory.webhooks.lastErasureDelivery()).toMatchObject({ delivered: true, attempts: 1, status: 204 });
  });

  it("fires after a committed POST /dsar over HTTP, not after a dry run, and carries no personal data", async () => {
    const { sink, mem } = await erasureSink();
    const email = "jane.roe@example.org";
    expect((await mem.req("POST", "/ingest", { title: "contact", content: `Write to ${email} about the lease.` })).status).toBe(200);
    expect((await mem.req("POST", "/dsar", { email, dry_run: true })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(sink.seen).toHaveLength(0);
    const res = await mem.req("POST", "/dsar", { email });
    expect(res.status).toBe(200);
    const cert = (await res.json()).certificate;
    await until(() => sink.seen.length === 1);
    const got = sink.seen[0]!;
    expect((await verifyWebhook(SECRET, got.headers as Record<string, string>, got.body, { now: new Date() })).ok).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ type: "erasure.completed", data: { certificate_id: cert.id, chunks: 1 } });
    expect(got.body).not.toContain("jane");
  });

  it("refuses a loopback destination unless CAIRN_OUTBOUND_ALLOW_LOOPBACK=1, and never throws at the caller", async () => {
    const sink = await startServer((_r, res) => res.writeHead(204).end());
    closers.push(sink.close);
    const dir = tempDir();
    const logs: string[] = [];
    t = await openTestMemory({ CAIRN_ERASURE_WEBHOOK_URL: `${sink.origin}/erased`, CAIRN_ERASURE_WEBHOOK_SECRET_FILE: secretFile(dir) },
      { log: (_l, message) => void logs.push(message) }, dir);
    await t.memory.emitErasure({ deleted: 1 });
    expect(sink.seen).toHaveLength(0);
    expect(t.memory.webhooks.lastErasureDelivery()).toMatchObject({ delivered: false, reason: "forbidden_address", attempts: 1 });
    expect(logs).toEqual(["erasure webhook not delivered"]);
  });

  it("refuses private destinations without connecting, even with loopback allowed", async () => {
    const dir = tempDir();
    t = await openTestMemory({
      CAIRN_ERASURE_WEBHOOK_URL: "http://10.20.30.40:9/erased", CAIRN_ERASURE_WEBHOOK_SECRET_FILE: secretFile(dir), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1",
    }, { log: () => undefined }, dir);
    await t.memory.emitErasure({ deleted: 1 });
    expect(t.memory.webhooks.lastErasureDelivery()).toMatchObject({ delivered: false, reason: "forbidden_address" });
  });

  it("refuses a redirect instead of following it", async () => {
    const target = await startServer((_r, res) => res.writeHead(204).end());
    const sink = await startServer((_r, res) => res.writeHead(302, { location: `${target.origin}/elsewhere` }).end());
    closers.push(sink.close, target.close);
    const dir = tempDir();
    t = await openTestMemory({
      CAIRN_ERASURE_WEBHOOK_URL: `${sink.origin}/erased`, CAIRN_ERASURE_WEBHOOK_SECRET_FILE: secretFile(dir), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1",
    }, { log: () => undefined }, dir);
    await t.memory.emitErasure({ deleted: 1 });
    expect(t.memory.webhooks.lastErasureDelivery()).toMatchObject({ delivered: false, reason: "redirect", attempts: 1 });
    expect(target.seen).toHaveLength(0);
  });

  it("retries a failing sink with the same delivery id", async () => {
    const sink = await startServer((_r, res, n) => res.writeHead(n < 3 ? 503 : 200).end());
    closers.push(sink.close);
    const client = createOutboundClient({ allowedOrigins: [sink.origin], resolve: async () => [], allowLoopback: true });
    const sender = createErasureSender({ url: `${sink.origin}/e`, secret: SECRET, client, sleep: async () => {} });
    const d = await sender.send({ deleted: 2 });
    expect(d).toMatchObject({ delivered: true, attempts: 3, status: 200 });
    expect(new Set(sink.seen.map((s) => s.headers["webhook-id"]))).toEqual(new Set([d.id]));
  });

  it("refuses a webhook URL without its secret file at boot", () => {
    expect(() => parseConfig({ CAIRN_ERASURE_WEBHOOK_URL: "https://hooks.example.org/x" })).toThrow(/CAIRN_ERASURE_WEBHOOK_SECRET_FILE/);
    expect(() => parseConfig({ CAIRN_ALERT_WEBHOOK_URL: "ftp://x", CAIRN_ALERT_WEBHOOK_SECRET_FILE: "/s" })).toThrow(/http\(s\) URL/);
  });
});

describe("system-alert webhook wiring (SPEC §6, §8)", () => {
  it("raises an RFC 3339-stamped signed alert when the RSS watchdog sees two samples over the envelope", async () => {
    const sink = await startServer((_r, res) => res.writeHead(200).end());
    closers.push(sink.close);
    const dir = tempDir();
    t = await openTestMemory({
      CAIRN_ALERT_WEBHOOK_URL: `${sink.origin}/alerts`, CAIRN_ALERT_WEBHOOK_SECRET_FILE: secretFile(dir), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1",
      CAIRN_MAX_RSS_MIB: "512",
    }, { rssBytes: () => 900 * 1048576, log: () => undefined }, dir);
    t.memory.security.rss.tick();
    t.memory.security.rss.tick();
    await until(() => sink.seen.length === 1);
    const got = sink.seen[0]!;
    expect(String(got.headers["webhook-timestamp"])).toMatch(RFC3339);
    expect((await verifyWebhook(SECRET, got.headers as Record<string, string>, got.body, { now: new Date() })).ok).toBe(true);
    expect(JSON.parse(got.body)).toMatchObject({ type: "system.alert", data: { kind: "rss_over_envelope", details: { rss_mib: 900, max_rss_mib: 512 } } });
  });
});

describe("inbound signed channel webhooks (SPEC §5 items 8, 10)", () => {
  async function channelApp(withSecret = true) {
    const dir = tempDir();
    const bridge = join(dir, "bridge.signal.json");
    writeFileSync(bridge, "{}");
    chmodSync(bridge, 0o600);
    const env: Record<string, string> = { AUTH_TOKEN: "service-token-abcdef", CAIRN_CHANNEL_BRIDGE_CONFIG: bridge };
    if (withSecret) env.CAIRN_CHANNEL_WEBHOOK_SECRET_FILE = secretFile(dir);
    // The real channel route (issue 16, src/http/routes/channels.ts) answers behind its gate row.
    t = await openTestMemory(env, {}, dir);
    return t;
  }
  const body = JSON.stringify({ envelope: { conversation_ref: "c1", text: "hi", external_id: "x" } });
  const signed = async (ts: string | number, secret = SECRET, id = "msg_1") => ({
    "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts),
    "webhook-signature": await signWebhook(secret, id, ts, body),
  });

  it("accepts a valid signature with epoch-seconds or RFC 3339 timestamps, without a bearer, and hands the body on", async () => {
    const app = await channelApp();
    const now = Math.floor(Date.now() / 1000);
    // Margins of 20 s keep a busy machine's clock drift out of it; the exact ±300 s edge is tested with a fixed clock in webhook-signature.test.ts.
    const seen: string[] = [];
    for (const [i, ts] of [now, rfc3339(new Date()), now - 280].entries()) {
      const res = await app.req("POST", "/webhooks/channel/signal", body, await signed(ts, SECRET, `msg_${i}`));
      expect(res.status).toBe(200);
      seen.push((await res.json()).status);
    }
    // The first delivery files the envelope; the others carry the same external_id.
    expect(seen).toEqual(["proposed", "duplicate", "duplicate"]);
  });

  it("answers 401 outside the ±300 s window, for a bad or missing signature, and when no secret is configured", async () => {
    const app = await channelApp();
    const now = Math.floor(Date.now() / 1000);
    const cases: Record<string, string>[] = [await signed(now - 320), await signed(now + 320), await signed(now, "whsec_" + btoa("another-secret")), { "webhook-id": "msg_1" }];
    for (const h of cases) {
      const res = await app.req("POST", "/webhooks/channel/signal", body, h);
      expect(res.status).toBe(401);
      expect((await res.json()).error.code).toBe("unauthorized");
    }
    // The operator bearer is not a channel credential: an authenticated caller without a signature is refused (403).
    const bearer = await app.req("POST", "/webhooks/channel/signal", body, { authorization: "Bearer service-token-abcdef" });
    expect(bearer.status).toBe(403);
    expect((await bearer.json()).error.details.reason).toBe("role_missing");
    await app.close();
    t = undefined;
    const bare = await channelApp(false);
    expect((await bare.req("POST", "/webhooks/channel/signal", body, await signed(now))).status).toBe(401);
  });
});
