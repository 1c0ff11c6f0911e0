/**
 * signal-cli's JSON-RPC over a byte stream (signal-cli-jsonrpc(5)): the gateway connects to a daemon's UNIX socket
 * (`daemon --socket PATH`) or starts `signal-cli jsonRpc` itself and speaks over its stdin/stdout. The fake is the
 * loopback signal-cli of fake-signal-cli.ts; the started executable is fake-signal-cli-bin.mjs (a relay to it).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { gatewayApp } from "../../src/gateway/app.ts";
import { signalBackend, type OpenBackend } from "../../src/gateway/backend.ts";
import type { GatewayConfig } from "../../src/gateway/config.ts";
import { RecipientCache, RequestBudget, SendGate } from "../../src/gateway/limits.ts";
import { linkDevice } from "../../src/gateway/serve.ts";
import { connectTcp, connectUnix, spawnStdio } from "../../src/runtime/byte-conn.ts";
import { tempDir } from "../_helpers/memory.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

const UUID = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
const BIN = resolve(new URL("./fake-signal-cli-bin.mjs", import.meta.url).pathname);
const ports = { connectUnix, connectTcp, spawnStdio };
let fake: FakeSignalCli;
let backend: OpenBackend | undefined;

beforeEach(async () => {
  fake = await startFakeSignalCli();
});
afterEach(async () => {
  await backend?.close();
  backend = undefined;
  await fake.close();
});

const appOver = (b: OpenBackend) => gatewayApp({
  version: "1.0.0", authToken: null, signal: b.signal, log: () => {},
  budget: new RequestBudget(), cache: new RecipientCache(), sends: new SendGate(2),
});
const post = (app: ReturnType<typeof appOver>, path: string, body: unknown) =>
  app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("signal-cli over its UNIX socket (daemon --socket)", () => {
  it("serves the gateway API: masked account, sends naming the account, username lookup, JSON-RPC errors", async () => {
    backend = signalBackend({ kind: "socket", path: fake.socket }, "+15550001234", ports);
    const app = appOver(backend);
    expect(await (await app.request("/v1/about")).json()).toMatchObject({ linked: true, account: "+15*******34" });
    fake.usernames = { "alice.01": UUID };
    const sent = await post(app, "/v2/send", { recipients: ["+4915112345678", "alice.01"], message: "over the socket" });
    expect(sent.status).toBe(201);
    expect((await sent.json()).timestamp).toMatch(/^\d+$/);
    expect(fake.calls.at(-1)).toEqual({ method: "send", params: { account: "+15550001234", recipient: ["+4915112345678", UUID], message: "over the socket" } });
    // A signal-cli error comes back as a JSON-RPC error, not a hang.
    await expect(backend.signal.call("noSuchMethod", {})).rejects.toThrow(/Method not implemented/);
  });

  it("streams receive notifications to the events route and answers Not linked when no account is linked", async () => {
    backend = signalBackend({ kind: "socket", path: fake.socket }, null, ports);
    const app = appOver(backend);
    fake.accounts = [];
    const unlinked = await app.request("/api/v1/events");
    expect(unlinked.status).toBe(503);
    expect(await unlinked.json()).toEqual({ error: "Not linked" });
    fake.accounts = ["+15550001234"];
    const ac = new AbortController();
    const s = await app.request("/api/v1/events", { signal: ac.signal });
    const reader = s.body!.pipeThrough(new TextDecoderStream()).getReader();
    await new Promise((r) => setTimeout(r, 100));
    fake.push({ envelope: { sourceUuid: UUID, timestamp: 42, dataMessage: { timestamp: 42, message: "hello from the socket" } } });
    let text = "";
    while (!text.includes("hello from the socket")) text += (await reader.read()).value ?? "";
    expect(text).toContain("event: receive");
    ac.abort();
    await reader.cancel().catch(() => {});
  });

  it("a lost connection fails the event stream (the follower reconnects) and the next call opens a new one", async () => {
    backend = signalBackend({ kind: "socket", path: fake.socket }, null, ports);
    const ac = new AbortController();
    const it = backend.signal.events(ac.signal)[Symbol.asyncIterator]();
    const next = it.next();
    await new Promise((r) => setTimeout(r, 50));
    // The daemon restarts: every connection drops; a new fake listens on a new socket path.
    await fake.close();
    await expect(next).rejects.toThrow(/closed the connection/);
    fake = await startFakeSignalCli();
    backend = signalBackend({ kind: "socket", path: fake.socket }, null, ports);
    expect(await backend.signal.linkedAccount()).toBe("+15550001234");
    ac.abort();
  });
});

describe("the stream client's limits", () => {
  it("a call signal-cli never answers times out (the 15 s client timeout, shortened here) instead of hanging", async () => {
    const { createServer } = await import("node:net");
    const path = join(tempDir(), "silent.socket");
    const silent = createServer((sock) => void sock.on("error", () => {}).resume()); // reads every request, answers none
    await new Promise<void>((r) => silent.listen(path, () => r()));
    backend = signalBackend({ kind: "socket", path }, null, ports);
    await expect(backend.signal.call("listAccounts", {}, 100)).rejects.toThrow(/did not answer listAccounts within 0.1 s/);
    await backend.close();
    backend = undefined;
    await new Promise((r) => silent.close(() => r(undefined)));
  });
});

describe("signal-cli started by the gateway (signal-cli jsonRpc on stdin/stdout)", () => {
  it("starts `PATH --config DATA_DIR jsonRpc`, speaks JSON-RPC over its stdio and stops it on close", async () => {
    const dir = tempDir();
    const argsFile = join(dir, "args.jsonl");
    writeFileSync(argsFile, "");
    process.env.FAKE_SIGNAL_CLI_SOCKET = fake.socket;
    process.env.FAKE_SIGNAL_CLI_ARGS = argsFile;
    backend = signalBackend({ kind: "spawn", path: BIN, dataDir: join(dir, "signal-data") }, "+15550001234", ports);
    const app = appOver(backend);
    expect(await (await app.request("/api/v1/accounts")).json()).toEqual([{ number: "+15*******34" }]);
    const rpc = await (await post(app, "/api/v1/rpc", { jsonrpc: "2.0", method: "sendTyping", params: { recipient: UUID }, id: 3 })).json();
    expect(rpc).toEqual({ jsonrpc: "2.0", result: {}, id: 3 });
    expect(fake.calls.at(-1)).toEqual({ method: "sendTyping", params: { account: "+15550001234", recipient: [UUID], stop: false } });
    expect(readFileSync(argsFile, "utf8").trim().split("\n").map((l) => JSON.parse(l))).toEqual([["--config", join(dir, "signal-data"), "jsonRpc"]]);
    await backend.close();
    backend = undefined;
    // The child is gone: its socket connection to the fake closes.
    const end = Date.now() + 5000;
    while (Date.now() < end && fake.connections() > 0) await new Promise((r) => setTimeout(r, 50));
    expect(fake.connections()).toBe(0);
  });

  it("link over a started signal-cli: account-less startLink/finishLink, the QR code printed", async () => {
    process.env.FAKE_SIGNAL_CLI_SOCKET = fake.socket;
    delete process.env.FAKE_SIGNAL_CLI_ARGS;
    fake.accounts = [];
    const printed: string[] = [];
    const config = { signalCli: { transport: { kind: "spawn" as const, path: BIN, dataDir: null }, account: "+15550001234" } } as unknown as GatewayConfig;
    expect(await linkDevice(config, "cairn-test", (s) => void printed.push(s), ports)).toBe("+15550001234");
    expect(printed.join("\n")).toContain("sgnl://linkdevice?uuid=fake-provisioning-id");
    expect(printed.join("\n")).toMatch(/[▀▄█]{10}/);
    expect(fake.calls.map((c) => c.method)).toEqual(["startLink", "finishLink"]);
    expect(fake.calls[1]!.params).toEqual({ deviceLinkUri: "sgnl://linkdevice?uuid=fake-provisioning-id&pub_key=BQ", deviceName: "cairn-test" });
  });
});
