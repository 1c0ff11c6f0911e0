import { afterEach, describe, expect, it } from "vitest";
import { createAlertSender } from "../../src/outbound/alert-webhook.ts";
import { createOutboundClient } from "../../src/outbound/outbound-client.ts";
import { verifyWebhook } from "../../src/outbound/webhook-signature.ts";
import { startServer } from "./_server.ts";

const SECRET = "whsec_" + btoa("alert sink shared secret 32 byte");
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function sinkFailing(times: number, status = 503) {
  const s = await startServer((_req, res, n) => res.writeHead(n <= times ? status : 204).end());
  closers.push(s.close);
  const client = createOutboundClient({ allowedOrigins: [s.origin], allowLoopback: true, resolve: async () => [] });
  return { ...s, client };
}

/** A clock that advances one second per reading, so each attempt gets its own timestamp. */
function tickingClock(start = Date.parse("2026-07-01T12:00:00Z")) {
  let t = start;
  return () => new Date((t += 1000));
}

describe("createAlertSender", () => {
  it("retries a failing sink with the same delivery id until it succeeds, re-signing each attempt", async () => {
    const sink = await sinkFailing(2);
    const waits: number[] = [];
    const sender = createAlertSender({ url: `${sink.origin}/alerts`, secret: SECRET, client: sink.client, sleep: async (ms) => void waits.push(ms), now: tickingClock() });
    const delivery = await sender.send({ kind: "rss_high", message: "RSS over envelope", details: { rss_mb: 600 } });

    expect(delivery).toMatchObject({ delivered: true, attempts: 3, status: 204 });
    expect(sink.seen).toHaveLength(3);
    const ids = sink.seen.map((r) => r.headers["webhook-id"]);
    expect(new Set(ids)).toEqual(new Set([delivery.id]));
    expect(delivery.id).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(waits).toEqual([1000, 5000]);

    const stamps = sink.seen.map((r) => r.headers["webhook-timestamp"] as string);
    for (const stamp of stamps) expect(stamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(new Set(stamps).size).toBe(3);
    expect(new Set(sink.seen.map((r) => r.body)).size).toBe(1);
    for (const req of sink.seen) {
      const headers = req.headers as Record<string, string>;
      const check = await verifyWebhook(SECRET, headers, req.body, { now: new Date(Date.parse(headers["webhook-timestamp"]!)) });
      expect(check).toMatchObject({ ok: true, id: delivery.id });
      expect(headers["content-type"]).toBe("application/json");
    }
    expect(JSON.parse(sink.seen[0]!.body)).toEqual({
      type: "system.alert",
      timestamp: "2026-07-01T12:00:01Z",
      data: { kind: "rss_high", message: "RSS over envelope", details: { rss_mb: 600 } },
    });
  });

  it("stops after three retries (four attempts) when the sink keeps failing", async () => {
    const sink = await sinkFailing(100, 500);
    const sender = createAlertSender({ url: `${sink.origin}/a`, secret: SECRET, client: sink.client, sleep: async () => {} });
    const delivery = await sender.send({ kind: "disk", message: "low" });
    expect(delivery).toMatchObject({ delivered: false, attempts: 4, reason: "http_status", status: 500 });
    expect(new Set(sink.seen.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(sink.seen).toHaveLength(4);
  });

  it("does not retry a 4xx answer", async () => {
    const sink = await sinkFailing(100, 401);
    const sender = createAlertSender({ url: `${sink.origin}/a`, secret: SECRET, client: sink.client, sleep: async () => {} });
    expect(await sender.send({ kind: "x", message: "y" })).toMatchObject({ delivered: false, attempts: 1, status: 401 });
    expect(sink.seen).toHaveLength(1);
  });

  it("retries network errors and does not retry a refused destination", async () => {
    const down = createOutboundClient({ allowedOrigins: ["http://127.0.0.1:1"], allowLoopback: true, resolve: async () => [] });
    const sender = createAlertSender({ url: "http://127.0.0.1:1/a", secret: SECRET, client: down, sleep: async () => {} });
    expect(await sender.send({ kind: "x", message: "y" })).toMatchObject({ delivered: false, attempts: 4, reason: "network" });

    const guarded = createOutboundClient({ allowedOrigins: ["http://10.1.1.1"], resolve: async () => [] });
    const refused = createAlertSender({ url: "http://10.1.1.1/a", secret: SECRET, client: guarded, sleep: async () => {} });
    expect(await refused.send({ kind: "x", message: "y" })).toMatchObject({ delivered: false, attempts: 1, reason: "forbidden_address" });
  });

  it("gives every alert its own delivery id", async () => {
    const sink = await sinkFailing(0);
    const sender = createAlertSender({ url: `${sink.origin}/a`, secret: SECRET, client: sink.client });
    const a = await sender.send({ kind: "x", message: "1" });
    const b = await sender.send({ kind: "x", message: "2" });
    expect(a.id).not.toBe(b.id);
    expect(sink.seen.map((r) => r.headers["webhook-id"])).toEqual([a.id, b.id]);
  });
});
