/**
 * The gateway's browser posture (SPEC §5 item 10, the same rule as the service's, src/auth/browser-posture.ts):
 * token-less, a web page the operator visits is a loopback caller too, so every route refuses a rebinding Host and a
 * foreign or `null` Origin, and every body route takes JSON only. Route by route, enumerated from the app itself;
 * nothing reaches signal-cli (a loopback fake speaking its JSON-RPC) when a request is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayApp } from "../../src/gateway/app.ts";
import { RecipientCache, RequestBudget, SendGate } from "../../src/gateway/limits.ts";
import { SignalCli } from "../../src/gateway/signal-cli.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

const UUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const HOST = "127.0.0.1:8080";
let fake: FakeSignalCli;
beforeEach(async () => (fake = await startFakeSignalCli()));
afterEach(async () => fake.close());

const build = (token: string | null = null) => gatewayApp({
  version: "1.0.0", authToken: token, signal: new SignalCli(fake.url, null), log: () => {},
  budget: new RequestBudget(), cache: new RecipientCache(), sends: new SendGate(2),
});

/** A request each route accepts from a well-behaved local client (JSON, loopback Host, no Origin). */
const SAMPLE: Record<string, { path: string; body?: unknown }> = {
  "GET /v1/health": { path: "/v1/health" },
  "GET /v1/about": { path: "/v1/about" },
  "GET /api/v1/accounts": { path: "/api/v1/accounts" },
  "POST /v2/send": { path: "/v2/send", body: { recipient: "+4915112345678", message: "hi" } },
  "POST /api/v1/rpc": { path: "/api/v1/rpc", body: { jsonrpc: "2.0", method: "sendMessage", params: { recipient: "+4915112345678", message: "hi" }, id: 1 } },
  "POST /v1/cache/seed": { path: "/v1/cache/seed", body: { entries: [{ number: "+4915112345678", uuid: UUID }] } },
  "GET /api/v1/events": { path: "/api/v1/events" },
  "GET /v1/receive/:number": { path: "/v1/receive/+4915112345678" },
};
const routes = Object.entries(SAMPLE).map(([key, s]) => ({ key, method: key.split(" ")[0]!, ...s }));

async function call(app: ReturnType<typeof build>, r: (typeof routes)[number], headers: Record<string, string>, body?: BodyInit) {
  const ac = new AbortController();
  const res = await app.request(`http://${HOST}${r.path}`, {
    method: r.method, signal: ac.signal,
    headers: { host: HOST, ...(r.body !== undefined && body === undefined ? { "content-type": "application/json" } : {}), ...headers },
    body: body ?? (r.body === undefined ? undefined : JSON.stringify(r.body)),
  });
  const text = res.headers.get("content-type")?.includes("event-stream") ? (ac.abort(), "") : await res.text();
  return { status: res.status, text };
}

describe("gateway browser posture, token-less", () => {
  it("the routes tested here are every route the gateway serves", () => {
    const served = build().routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`).sort();
    expect(served).toEqual(Object.keys(SAMPLE).sort());
  });

  it.each(routes.map((r) => [r.key, r] as const))("%s: a well-behaved local request passes", async (_k, r) => {
    const out = await call(build(), r, {});
    expect(out.status, out.text).toBeLessThan(500);
    expect([403, 415]).not.toContain(out.status);
  });

  it.each(routes.map((r) => [r.key, r] as const))("%s: a rebinding Host is refused before anything runs", async (_k, r) => {
    const out = await call(build(), r, { host: "rebind.evil.example" });
    expect(out.status).toBe(403);
    expect(JSON.parse(out.text)).toEqual({ error: "origin_refused", reason: "host_not_loopback" });
    expect(fake.calls).toEqual([]);
  });

  it.each(routes.map((r) => [r.key, r] as const))("%s: a foreign or null Origin is refused; the gateway's own origin is not", async (_k, r) => {
    for (const origin of ["https://evil.example", "null", "http://127.0.0.1:9999", "file://"]) {
      const out = await call(build(), r, { origin });
      expect(out.status, origin).toBe(403);
      expect(JSON.parse(out.text)).toEqual({ error: "origin_refused", reason: "origin_mismatch" });
    }
    expect(fake.calls).toEqual([]);
    expect((await call(build(), r, { origin: `http://${HOST}` })).status).not.toBe(403);
  });

  const bodyRoutes = routes.filter((r) => r.body !== undefined);
  it.each(bodyRoutes.map((r) => [r.key, r] as const))("%s: text/plain, form, multipart and untyped bodies are refused with 415", async (_k, r) => {
    const json = JSON.stringify(r.body);
    for (const [type, body] of [["text/plain;charset=UTF-8", json], ["application/x-www-form-urlencoded", `${json}=`], ["multipart/form-data; boundary=x", `--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n${json}\r\n--x--\r\n`]] as const) {
      const out = await call(build(), r, { "content-type": type }, body);
      expect(out.status, type).toBe(415);
      expect(JSON.parse(out.text)).toEqual({ error: "unsupported_media_type", accepted: ["application/json"] });
    }
    const untyped = await call(build(), r, { "content-length": String(new TextEncoder().encode(json).length) }, new TextEncoder().encode(json));
    expect(untyped.status).toBe(415);
    expect(fake.calls).toEqual([]);
  });

  it("a text/plain POST to /v1/cache/seed cannot point a number at another account", async () => {
    const app = build();
    const forged = await call(app, routes.find((r) => r.key === "POST /v1/cache/seed")!, { "content-type": "text/plain", origin: "null" },
      JSON.stringify({ entries: [{ number: "+4915112345678", uuid: UUID }] }));
    expect(forged.status).toBe(403);
    await call(app, routes.find((r) => r.key === "POST /v2/send")!, {});
    expect(fake.calls.find((c) => c.method === "send")?.params.recipient).toEqual(["+4915112345678"]);
  });
});

describe("gateway browser posture, with a token", () => {
  it("Host and Origin are not checked when a bearer is required (a browser cannot attach it); the body type still is", async () => {
    const app = build("s3cret");
    const auth = { authorization: "Bearer s3cret" };
    const health = routes.find((r) => r.key === "GET /v1/health")!;
    expect((await call(app, health, { ...auth, host: "gateway.lan:8080", origin: "https://ops.example" })).status).toBe(200);
    expect((await call(app, health, { host: "rebind.evil.example" })).status).toBe(401);
    const send = routes.find((r) => r.key === "POST /v2/send")!;
    expect((await call(app, send, { ...auth, "content-type": "text/plain" }, JSON.stringify(send.body))).status).toBe(415);
  });
});
