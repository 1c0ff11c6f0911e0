/**
 * The gateway as a process (SPEC §4.13, §8): a real Cairn server on loopback (booted here), the gateway bin, the
 * loopback fake of signal-cli. SIGTERM ends the process even with an events subscriber that never reads; a rebinding
 * Host cannot subscribe to the events stream over the wire; with signal-cli absent, health says so and the event
 * stream is retried with a backoff whose log stays short.
 */
import { connect, type Socket } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";
import { workflowEnv } from "../workflow/_setup.ts";
import { freePort, gatewayConfig, killChildren, start, until } from "./_process.ts";
import { type FakeSignalCli, startFakeSignalCli } from "./fake-signal-cli.ts";

let fake: FakeSignalCli | undefined;
let service: BootedServer | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  killChildren();
  for (const s of sockets.splice(0)) s.destroy();
  await fake?.close();
  await service?.close();
  fake = undefined;
  service = undefined;
});

/** A raw HTTP/1.1 request on its own socket; resolves with the socket and the first bytes of the answer. */
async function rawGet(port: number, path: string, host: string): Promise<{ socket: Socket; head: string }> {
  const socket = connect({ host: "127.0.0.1", port });
  sockets.push(socket);
  await new Promise<void>((r, j) => (socket.once("connect", () => r()), socket.once("error", j)));
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAccept: text/event-stream\r\n\r\n`);
  const head = await new Promise<string>((r) => socket.once("data", (d) => r(String(d))));
  return { socket, head };
}

async function gatewayUp(dir: string, signalCli: Record<string, unknown>) {
  service = await bootServer(workflowEnv(dir), 0);
  const port = await freePort();
  const gw = start("cairn-gateway.mjs", ["serve", "--config", gatewayConfig(dir, { servicePort: service.server.port, signalCli, port })]);
  await until("gateway start", async () => (await fetch(`http://127.0.0.1:${port}/v1/receive/x`)).status || undefined, gw.out);
  return { port, gw };
}

describe("cairn-gateway lifecycle", () => {
  it("SIGTERM ends the process with a stalled events subscriber attached; a rebinding Host never subscribes", async () => {
    fake = await startFakeSignalCli();
    const { port, gw } = await gatewayUp(tempDir(), { rpc_url: fake.url });
    const rebind = await rawGet(port, "/api/v1/events", "rebind.evil.example");
    expect(rebind.head).toMatch(/^HTTP\/1\.1 403/);
    expect(rebind.head).not.toContain("text/event-stream");

    const sub = await rawGet(port, "/api/v1/events", `127.0.0.1:${port}`);
    expect(sub.head).toMatch(/^HTTP\/1\.1 200[\s\S]*text\/event-stream/i);
    sub.socket.pause(); // the subscriber stops reading
    // A backlog: enough events to fill the socket buffers both ways, so the gateway's writes to this subscriber block
    // and its follower has hundreds of messages queued (each one 400 at the service: over 10,000 characters).
    for (let i = 0; i < 400; i++) fake.push({ envelope: { sourceNumber: "+4915112345678", timestamp: i, dataMessage: { message: "x".repeat(20_000) } } });
    await new Promise((r) => setTimeout(r, 500));

    gw.proc.kill("SIGTERM");
    const exited = await Promise.race([gw.exit, new Promise((r) => setTimeout(() => r("still running"), 20_000))]);
    expect(exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/v1/health`)).rejects.toThrow();
  }, 120_000);

  it("with signal-cli absent, /v1/health answers 503 naming it, and reconnection backs off with a short log", async () => {
    const dir = tempDir();
    const { port, gw } = await gatewayUp(dir, { socket: join(dir, "no-signal-cli.socket") });
    const health = await fetch(`http://127.0.0.1:${port}/v1/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: "unavailable", signal_cli: { reachable: false } });
    // Five seconds of outage: with a doubling delay from 1 s that is three or four attempts, logged at the 1st and 2nd.
    await new Promise((r) => setTimeout(r, 5_000));
    const lines = gw.out().split("\n").filter((l) => l.includes("signal-cli event stream"));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(3);
    gw.proc.kill("SIGTERM");
    expect(await gw.exit).toBe(0);
  }, 120_000);
});
