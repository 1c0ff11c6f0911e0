/** The gateway's local API (SPEC §4.13, §5 item 10, §7, §8) against a loopback fake of signal-cli. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayApp, type GatewayLog } from "../../src/gateway/app.ts";
import { RecipientCache, RequestBudget, SendGate } from "../../src/gateway/limits.ts";
import { SignalCli } from "../../src/gateway/signal-cli.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

const UUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
let fake: FakeSignalCli;
let logs: { level: string; msg: string; fields?: Record<string, unknown> }[];

function build(opts: { token?: string | null; now?: () => number } = {}) {
  const log: GatewayLog = (level, msg, fields) => logs.push({ level, msg, fields });
  return gatewayApp({
    version: "1.0.0", authToken: opts.token ?? null, signal: new SignalCli(fake.url, null), log,
    budget: new RequestBudget(opts.now), cache: new RecipientCache(opts.now), sends: new SendGate(2),
  });
}
const post = (app: ReturnType<typeof build>, path: string, body: unknown, headers: Record<string, string> = {}) =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: typeof body === "string" ? body : JSON.stringify(body) });

beforeEach(async () => {
  fake = await startFakeSignalCli();
  logs = [];
});
afterEach(async () => fake.close());

describe("gateway routes", () => {
  it("health, about and accounts (masked)", async () => {
    const app = build();
    expect(await (await app.request("/v1/health")).json()).toEqual({ status: "ok", version: "1.0.0" });
    const about = await (await app.request("/v1/about")).json();
    expect(about).toMatchObject({ linked: true, account: "+15*******34" });
    expect(JSON.stringify(about)).not.toContain("5550001234");
    expect(await (await app.request("/api/v1/accounts")).json()).toEqual([{ number: "+15*******34" }]);
  });

  it("POST /v2/send sends through signal-cli, u:<uuid> as the bare ACI", async () => {
    const app = build();
    const r = await post(app, "/v2/send", { recipients: ["+4915112345678", `u:${UUID}`, UUID], message: "hello" });
    expect(r.status).toBe(201);
    expect((await r.json()).timestamp).toMatch(/^\d+$/);
    expect(fake.calls.at(-1)).toEqual({ method: "send", params: { recipient: ["+4915112345678", UUID, UUID], message: "hello" } });
  });

  it.each([
    [{ recipient: "+123456", message: "x" }, "recipient"], // 6 digits
    [{ recipient: "+123456789012345", message: "x" }, "recipient"], // 15 digits
    [{ recipient: "4915112345678", message: "x" }, "recipient"], // no +
    [{ recipient: "u:not-a-uuid", message: "x" }, "recipient"],
    [{ recipient: "al.01", message: "x" }, "recipient"], // a 2-character nickname is no username
    [{ recipient: "alice", message: "x" }, "recipient"], // a username carries its discriminator
    [{ recipient: "1alice.01", message: "x" }, "recipient"],
    [{ recipients: ["+4915112345678", "nope"], message: "x" }, "recipients[1]"],
    [{ message: "x" }, "recipient"],
    [{ recipient: "+4915112345678", message: "" }, "message"],
    [{ recipient: "+4915112345678", message: "a".repeat(10_001) }, "message"],
    [{ recipient: "+4915112345678" }, "message"],
    ["not json", "body"],
  ])("refuses %j naming %s", async (body, field) => {
    const r = await post(build(), "/v2/send", body);
    expect(r.status).toBe(400);
    expect((await r.json()).field).toBe(field);
    expect(fake.calls.filter((c) => c.method === "send")).toEqual([]);
  });

  it("resolves a Signal username through signal-cli's getUserStatus and sends to its ACI; an unknown one is refused naming the field", async () => {
    fake.usernames = { "alice.01": UUID };
    const app = build();
    const r = await post(app, "/v2/send", { recipients: ["+4915112345678", "Alice.01"], message: "hello" });
    expect(r.status).toBe(201);
    expect(fake.calls.filter((c) => c.method === "getUserStatus")).toEqual([{ method: "getUserStatus", params: { username: ["alice.01"] } }]);
    expect(fake.calls.at(-1)).toEqual({ method: "send", params: { recipient: ["+4915112345678", UUID], message: "hello" } });
    // signal-cli's own `u:` form resolves the same way; the resolution is cached (no second lookup).
    const rpc = await (await post(app, "/api/v1/rpc", { jsonrpc: "2.0", method: "sendMessage", params: { recipient: "u:alice.01", message: "again" }, id: 1 })).json();
    expect(rpc.result.timestamp).toBeGreaterThan(0);
    expect(fake.calls.filter((c) => c.method === "getUserStatus")).toHaveLength(1);
    expect(fake.calls.at(-1)?.params.recipient).toEqual([UUID]);
    const unknown = await post(app, "/v2/send", { recipients: [UUID, "bob.42"], message: "hi" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ field: "recipients[1]", error: expect.stringMatching(/not registered/) });
    const viaRpc = await (await post(app, "/api/v1/rpc", { jsonrpc: "2.0", method: "sendMessage", params: { recipient: "bob.42", message: "hi" }, id: 2 })).json();
    expect(viaRpc.error).toMatchObject({ code: -32602, data: { field: "recipient" } });
    expect(fake.calls.filter((c) => c.method === "send")).toHaveLength(2);
  });

  it("accepts the edges: 7 and 14 digits, exactly 10,000 characters", async () => {
    const app = build();
    expect((await post(app, "/v2/send", { recipient: "+1234567", message: "a".repeat(10_000) })).status).toBe(201);
    expect((await post(app, "/v2/send", { recipient: "+12345678901234", message: "é" })).status).toBe(201);
  });

  it("JSON-RPC: send, reaction, typing, groups, read receipts, unknown", async () => {
    const app = build();
    const rpc = async (method: string, params: unknown = {}) => (await post(app, "/api/v1/rpc", { jsonrpc: "2.0", method, params, id: 7 })).json();
    expect((await rpc("sendMessage", { recipient: "+4915112345678", message: "hi" })).result.timestamp).toBeGreaterThan(0);
    expect((await rpc("sendReaction", { recipient: UUID, emoji: "👍", targetAuthor: "+4915112345678", targetTimestamp: 5 })).result).toBeDefined();
    expect(fake.calls.at(-1)?.method).toBe("sendReaction");
    expect(await rpc("sendTyping", { recipient: UUID })).toMatchObject({ id: 7, result: {} });
    expect((await rpc("listGroups")).result).toEqual([]);
    expect((await rpc("getGroups")).result).toEqual([]);
    expect(await rpc("sendReadReceipt", { recipient: UUID })).toEqual({ jsonrpc: "2.0", result: null, id: 7 });
    expect((await rpc("markRead")).result).toBeNull();
    expect(await rpc("deleteEverything")).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: 7 });
    expect((await rpc("sendMessage", { recipient: "+1", message: "hi" })).error).toMatchObject({ code: -32602, data: { field: "recipient" } });
  });

  it("cache seed maps a phone to a uuid, logs at warning level with digests only", async () => {
    const app = build();
    const r = await post(app, "/v1/cache/seed", { entries: [{ number: "+4915112345678", uuid: UUID }] });
    expect(await r.json()).toEqual({ seeded: 1 });
    expect(logs).toHaveLength(1);
    expect(logs[0]!.level).toBe("warn");
    expect(JSON.stringify(logs)).not.toContain("4915112345678");
    expect(JSON.stringify(logs)).not.toContain(UUID);
    await post(app, "/v2/send", { recipient: "+4915112345678", message: "x" });
    expect(fake.calls.at(-1)?.params.recipient).toEqual([UUID]);
    expect((await post(app, "/v1/cache/seed", { entries: [{ number: UUID, uuid: UUID }] })).status).toBe(400);
  });

  it("events: Not linked when no account is linked; a stream of receive events when linked", async () => {
    fake.accounts = [];
    const app = build();
    const r = await app.request("/api/v1/events");
    expect(r.status).toBe(503);
    expect(await r.json()).toEqual({ error: "Not linked" });
    expect(await (await app.request("/v1/about")).json()).toMatchObject({ linked: false, account: null });
    fake.accounts = ["+15550001234"];
    const ac = new AbortController();
    const s = await app.request("/api/v1/events", { signal: ac.signal });
    expect(s.headers.get("content-type")).toContain("text/event-stream");
    const reader = s.body!.pipeThrough(new TextDecoderStream()).getReader();
    await new Promise((r) => setTimeout(r, 100));
    fake.push({ envelope: { sourceNumber: "+4915112345678", timestamp: 42, dataMessage: { message: "hey" } } });
    let text = "";
    while (!text.includes("hey")) text += (await reader.read()).value ?? "";
    expect(text).toContain("event: receive");
    ac.abort();
    await reader.cancel().catch(() => {});
  });

  it("receive stub points to the events stream", async () => {
    const r = await build().request("/v1/receive/+4915112345678");
    expect(await r.json()).toMatchObject({ events: "/api/v1/events" });
  });

  it("bearer gate: the whole surface; an empty token is no credential", async () => {
    const app = build({ token: "s3cret" });
    expect((await app.request("/v1/health")).status).toBe(401);
    expect((await app.request("/v1/health", { headers: { authorization: "Bearer wrong!" } })).status).toBe(401);
    expect((await app.request("/v1/health", { headers: { authorization: "Bearer " } })).status).toBe(401);
    expect((await app.request("/v1/health", { headers: { authorization: "Bearer s3cret" } })).status).toBe(200);
  });

  it("global budget: the 101st request in 60 s is a bare 429 with RETRY-AFTER: 60; the window slides", async () => {
    let now = 1_000_000;
    const app = build({ now: () => now });
    for (let i = 0; i < 100; i++) expect((await app.request(i % 2 ? "/v1/health" : "/nope")).status).not.toBe(429);
    const r = await app.request("/v1/health");
    expect(r.status).toBe(429);
    expect(r.headers.get("retry-after")).toBe("60");
    expect(await r.text()).toBe("");
    now += 60_001;
    expect((await app.request("/v1/health")).status).toBe(200);
  });
});

describe("recipient cache", () => {
  it("holds 4,096 entries and evicts the oldest quarter; the phone leg expires", () => {
    let now = 0;
    const c = new RecipientCache(() => now);
    for (let i = 0; i < 4096; i++) c.set(`+1${String(i).padStart(9, "0")}`, `id${i}`);
    expect(c.size).toBe(4096);
    c.set("+19999999999", "new");
    expect(c.size).toBe(4096 - 1024 + 1);
    expect(c.get("+1000000000")).toBeUndefined();
    expect(c.get("+1000001023")).toBeUndefined();
    expect(c.get("+1000001024")).toBe("id1024");
    now += RecipientCache.PHONE_TTL_MS + 1;
    expect(c.get("+19999999999")).toBeUndefined();
  });
});

describe("send gate and outbound client", () => {
  /** A clock the test moves by hand: `sleep` resolves once `advance` passes its wake time. */
  function manualClock() {
    let t = 0;
    const sleepers: { at: number; wake: () => void }[] = [];
    return {
      now: () => t,
      sleep: (ms: number) => new Promise<void>((wake) => sleepers.push({ at: t + ms, wake })),
      advance(ms: number) {
        t += ms;
        for (const s of sleepers.splice(0)) if (s.at <= t) s.wake(); else sleepers.push(s);
      },
    };
  }
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it("max_sends_per_second bounds in-flight sends", async () => {
    const clock = manualClock();
    // Sleeping moves time on at once, so only the in-flight bound is under test here.
    const gate = new SendGate(2, { now: clock.now, sleep: async (ms) => clock.advance(ms) });
    let active = 0;
    let peak = 0;
    await Promise.all(Array.from({ length: 7 }, () => gate.run(async () => {
      peak = Math.max(peak, ++active);
      await new Promise((r) => setTimeout(r, 10));
      active--;
    })));
    expect(peak).toBe(2);
  });

  it("max_sends_per_second paces starts: at most that many sends begin in any rolling second", async () => {
    const clock = manualClock();
    const gate = new SendGate(2, clock);
    const startedAt: number[] = [];
    const all = Promise.all(Array.from({ length: 5 }, () => gate.run(async () => void startedAt.push(clock.now()))));
    await settle();
    expect(startedAt).toEqual([0, 0]);
    clock.advance(999);
    await settle();
    expect(startedAt).toEqual([0, 0]);
    clock.advance(1);
    await settle();
    expect(startedAt).toEqual([0, 0, 1000, 1000]);
    clock.advance(1000);
    await all;
    expect(startedAt).toEqual([0, 0, 1000, 1000, 2000]);
  });

  it("POST /v2/send is paced by the gate: a second send in the same second waits for the next", async () => {
    const clock = manualClock();
    const gate = new SendGate(1, clock);
    const app = gatewayApp({
      version: "1.0.0", authToken: null, signal: new SignalCli(fake.url, null), log: () => {},
      budget: new RequestBudget(), cache: new RecipientCache(), sends: gate,
    });
    const first = post(app, "/v2/send", { recipient: "+4915112345678", message: "one" });
    const second = post(app, "/v2/send", { recipient: "+4915112345678", message: "two" });
    expect((await first).status).toBe(201);
    await settle();
    expect(fake.calls.filter((c) => c.method === "send").map((c) => c.params.message)).toEqual(["one"]);
    clock.advance(1000);
    expect((await second).status).toBe(201);
    expect(fake.calls.filter((c) => c.method === "send").map((c) => c.params.message)).toEqual(["one", "two"]);
  });

  it("the signal-cli client refuses redirects", async () => {
    const { createServer } = await import("node:http");
    const s = createServer((_q, r) => r.writeHead(307, { location: fake.url + "/api/v1/rpc" }).end());
    await new Promise<void>((r) => s.listen(0, "127.0.0.1", () => r()));
    const port = (s.address() as { port: number }).port;
    await expect(new SignalCli(`http://127.0.0.1:${port}`, null).call("listAccounts")).rejects.toThrow();
    expect(fake.calls).toEqual([]);
    await new Promise((r) => s.close(() => r(undefined)));
  });
});
