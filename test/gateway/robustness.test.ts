/**
 * Gateway robustness (SPEC §7 "over budget", §8 gateway rows): the global budget counts only admitted requests, so a
 * local page without the token cannot starve it; a request-body bound with a bare 413; health that names an absent
 * signal-cli; reconnection with a doubling delay and a log that stays short. signal-cli is the loopback fake, or
 * nothing at all (a port and a socket path nobody listens on).
 */
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayApp, GATEWAY_MAX_BODY_BYTES, type GatewayLog } from "../../src/gateway/app.ts";
import { RecipientCache, RequestBudget, SendGate } from "../../src/gateway/limits.ts";
import { followInbound } from "../../src/gateway/service-link.ts";
import { SignalCli, type SignalBackend } from "../../src/gateway/signal-cli.ts";
import { SignalCliStream } from "../../src/gateway/signal-stream.ts";
import { RECONNECT_MAX_MS, type StreamState } from "../../src/gateway/reconnect.ts";
import { connectUnix } from "../../src/runtime/byte-conn.ts";
import { tempDir } from "../_helpers/memory.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";
import { freePort } from "./_process.ts";

let fake: FakeSignalCli;
let logs: { level: string; msg: string; fields?: Record<string, unknown> }[];
beforeEach(async () => {
  fake = await startFakeSignalCli();
  logs = [];
});
afterEach(async () => fake.close());

const log: GatewayLog = (level, msg, fields) => void logs.push({ level, msg, fields });
function build(o: { token?: string | null; signal?: SignalBackend; now?: () => number; stream?: StreamState } = {}) {
  return gatewayApp({
    version: "1.0.0", authToken: o.token ?? null, signal: o.signal ?? new SignalCli(fake.url, null), log,
    budget: new RequestBudget(o.now), refusals: new RequestBudget(o.now), cache: new RecipientCache(o.now), sends: new SendGate(2),
    ...(o.stream ? { stream: o.stream } : {}),
  });
}
const at = (app: ReturnType<typeof build>, path: string, init: RequestInit = {}) => Promise.resolve(app.request(`http://127.0.0.1:8080${path}`, init));

describe("the global budget (100 per 60 s) counts admitted requests only", () => {
  it("with a token, a flood without it is refused and spends nothing of the clients' budget", async () => {
    const app = build({ token: "s3cret" });
    for (let i = 0; i < 150; i++) {
      const headers: Record<string, string> = i % 2 ? { authorization: "Bearer guess" } : {};
      expect([401, 429]).toContain((await at(app, i % 3 ? "/v1/health" : "/api/v1/events", { headers })).status);
    }
    const ok = { authorization: "Bearer s3cret" };
    for (let i = 0; i < 100; i++) expect((await at(app, "/v1/receive/+4915112345678", { headers: ok })).status).toBe(410);
    const over = await at(app, "/v1/health", { headers: ok });
    expect(over.status).toBe(429);
    expect(over.headers.get("retry-after")).toBe("60");
    expect(await over.text()).toBe("");
  });

  it("refusals have their own bound: past 100 in 60 s an unauthenticated caller gets the bare 429 too", async () => {
    let now = 5_000_000;
    const app = build({ token: "s3cret", now: () => now });
    const statuses = [];
    for (let i = 0; i < 101; i++) statuses.push((await at(app, "/v1/health", { headers: { authorization: "Bearer nope" } })).status);
    expect(statuses.slice(0, 100).every((s) => s === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
    expect((await at(app, "/v1/health", { headers: { authorization: "Bearer s3cret" } })).status).not.toBe(429);
    now += 60_001;
    expect((await at(app, "/v1/health", { headers: { authorization: "Bearer nope" } })).status).toBe(401);
  });

  it("token-less, requests the browser posture refuses spend nothing either", async () => {
    const app = build();
    for (let i = 0; i < 150; i++) expect([403, 429]).toContain((await at(app, "/v1/health", { headers: { host: "rebind.evil.example" } })).status);
    expect((await at(app, "/v1/health")).status).toBe(200);
  });
});

describe("request body bound", () => {
  it(`a body over ${GATEWAY_MAX_BODY_BYTES} bytes is a bare 413, declared or chunked, and nothing is sent`, async () => {
    const app = build();
    const big = JSON.stringify({ recipient: "+4915112345678", message: "x".repeat(GATEWAY_MAX_BODY_BYTES) });
    const declared = await at(app, "/v2/send", { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(declared.status).toBe(413);
    expect(await declared.text()).toBe("");
    const bytes = new TextEncoder().encode(big);
    const chunked = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i += 16_384) c.enqueue(bytes.slice(i, i + 16_384));
        c.close();
      },
    });
    const streamed = await at(app, "/api/v1/rpc", { method: "POST", headers: { "content-type": "application/json" }, body: chunked, duplex: "half" } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(fake.calls.filter((c) => c.method === "send")).toEqual([]);
    // The largest legitimate body (a 1,000-entry seed) is well inside the bound.
    const seed = JSON.stringify({ entries: Array.from({ length: 1000 }, (_, i) => ({ number: `+49151${String(i).padStart(7, "0")}`, uuid: "3f2504e0-4f89-41d3-9a0c-0305e82c3301" })) });
    expect(seed.length).toBeLessThan(GATEWAY_MAX_BODY_BYTES / 2);
    expect((await at(app, "/v1/cache/seed", { method: "POST", headers: { "content-type": "application/json" }, body: seed })).status).toBe(200);
  });
});

describe("health names an absent signal-cli", () => {
  it("answers {status: ok, version} while signal-cli answers", async () => {
    const r = await at(build(), "/v1/health");
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ status: "ok", version: "1.0.0" });
  });

  it("answers 503 unavailable when signal-cli's HTTP daemon or socket is not there (the API would answer 502)", async () => {
    const port = await freePort();
    const dir = tempDir();
    for (const signal of [new SignalCli(`http://127.0.0.1:${port}`, null), new SignalCliStream(() => connectUnix(join(dir, "absent.socket")), null)]) {
      const stream: StreamState = { failures: 3, retryAt: Date.now() + 4000 };
      const app = build({ signal, stream });
      const r = await at(app, "/v1/health");
      expect(r.status).toBe(503);
      const body = await r.json();
      expect(body).toMatchObject({ status: "unavailable", version: "1.0.0", signal_cli: { reachable: false, event_stream: { failed_attempts: 3 } } });
      expect(body.signal_cli.event_stream.next_attempt_in_s).toBeGreaterThan(0);
      expect((await at(app, "/v1/about")).status).toBe(502);
    }
  });
});

describe("reconnecting to signal-cli's event stream", () => {
  it("waits 1 s, 2 s, 4 s … up to 60 s between attempts and logs only at 1, 2, 4, 8, 16 … failures; a success resets both", async () => {
    const ac = new AbortController();
    const waits: number[] = [];
    let opened = false;
    const signal: SignalBackend = {
      linkedAccount: async () => null,
      call: async () => null,
      // deno-lint-ignore require-yield
      async *events(_s, onOpen) {
        if (opened) { onOpen?.(); opened = false; return; }
        throw new Error("connect ECONNREFUSED");
      },
    };
    const state: StreamState = { failures: 0, retryAt: null };
    const follow = followInbound({ baseUrl: "http://127.0.0.1:1", webhookSecret: "whsec_eA==", signal, sends: new SendGate(1), log }, ac.signal, {
      state,
      sleep: async (ms) => {
        waits.push(ms);
        if (waits.length === 20) opened = true; // signal-cli comes back once
        if (waits.length === 24) ac.abort();
      },
    });
    await follow;
    const cap = RECONNECT_MAX_MS;
    expect(waits.slice(0, 20)).toEqual([1000, 2000, 4000, 8000, 16000, 32000, cap, cap, cap, cap, cap, cap, cap, cap, cap, cap, cap, cap, cap, cap]);
    expect(waits.slice(20)).toEqual([1000, 2000, 4000, 8000]); // the stream that opened, then ended: back to 1 s
    const lost = logs.filter((l) => l.msg.startsWith("signal-cli event stream"));
    expect(lost.map((l) => l.fields?.failed_attempts ?? l.msg)).toEqual([1, 2, 4, 8, 16, "signal-cli event stream restored", 1, 2, 4]);
    expect(state.failures).toBe(4);
  });

  it("an abort during a long backoff ends the follower at once", async () => {
    const ac = new AbortController();
    const signal: SignalBackend = { linkedAccount: async () => null, call: async () => null, async *events() { throw new Error("gone"); } };
    const state: StreamState = { failures: 6, retryAt: null };
    const follow = followInbound({ baseUrl: "http://127.0.0.1:1", webhookSecret: "whsec_eA==", signal, sends: new SendGate(1), log }, ac.signal, { state });
    await new Promise((r) => setTimeout(r, 50));
    ac.abort();
    const done = await Promise.race([follow.then(() => "ended"), new Promise((r) => setTimeout(() => r("waiting"), 2000))]);
    expect(done).toBe("ended");
  });
});
