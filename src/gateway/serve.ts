/**
 * `cairn-gateway serve` and `link` without the runtime (SPEC §4.13): the
 * runtime entry (`gateway.ts`) loads the config, hands in the HTTP server
 * port and the logger, and exits on a thrown error.
 */
import QRCode from "qrcode";
import { gatewayApp, type GatewayLog } from "./app.ts";
import type { GatewayConfig } from "./config.ts";
import { RecipientCache, RequestBudget, SendGate } from "./limits.ts";
import { drainOnce, followInbound, registerMount } from "./service-link.ts";
import { signalBackend, type SignalPorts } from "./backend.ts";
import type { StreamState } from "./reconnect.ts";
import type { SignalBackend } from "./signal-cli.ts";

/** A running gateway. */
export interface RunningGateway {
  port: number;
  stop(): Promise<void>;
}

type ServeFetch = (fetch: (req: Request) => Response | Promise<Response>, opts: { hostname: string; port: number }) => Promise<{ port: number; close(): Promise<void> }>;

/** Registers the mount (or throws), then serves the local API, follows inbound messages and cranks the drain. */
export async function startGateway(config: GatewayConfig, o: { version: string; serveFetch: ServeFetch; ports: SignalPorts; log: GatewayLog; mountBackoffMs?: number }): Promise<RunningGateway> {
  const backend = signalBackend(config.signalCli.transport, config.signalCli.account, o.ports);
  const signal = backend.signal;
  const sends = new SendGate(config.maxSendsPerSecond);
  const link = { baseUrl: config.service.baseUrl, webhookSecret: config.service.webhookSecret, signal, sends, log: o.log };
  const mount = await registerMount({ ...link, bridgeConfigSha256: config.bridgeConfigSha256, backoffMs: o.mountBackoffMs }).catch(async (e) => {
    await backend.close();
    throw e;
  });
  o.log("info", "mounted on the service", { mount_id: mount.mount_id });
  const stream: StreamState = { failures: 0, retryAt: null };
  const closing = new AbortController();
  const app = gatewayApp({
    version: o.version, authToken: config.server.authToken, signal, budget: new RequestBudget(), refusals: new RequestBudget(),
    cache: new RecipientCache(), sends, log: o.log, stream, closing: closing.signal,
  });
  const server = await o.serveFetch((req) => app.fetch(req), { hostname: config.server.bind, port: config.server.port });
  const ac = new AbortController();
  const inbound = followInbound(link, ac.signal, { state: stream });
  let cranking = false;
  const crank = async () => {
    if (cranking) return; // one drain at a time: a slow send never overlaps the next claim
    cranking = true;
    try {
      await drainOnce(link);
    } catch (e) {
      o.log("error", "drain failed", { error: e instanceof Error ? e.message : String(e) });
    } finally {
      cranking = false;
    }
  };
  const timer = setInterval(crank, config.drainIntervalSecs * 1000);
  o.log("info", "gateway listening", { bind: config.server.bind, port: server.port, drain_interval_secs: config.drainIntervalSecs });
  return {
    port: server.port,
    // Issue: SIGTERM must end the process promptly. The listener goes first (open event streams are ended, a stalled
    // subscriber's socket is closed after the adapter's 1 s grace), then the follower stops at the next message.
    stop: async () => {
      clearInterval(timer);
      ac.abort();
      closing.abort();
      await server.close();
      await inbound.catch(() => {});
      await backend.close();
    },
  };
}

/** Links signal-cli as a secondary device: prints the `sgnl://` URI as a terminal QR code, waits for the scan. */
export async function linkDevice(config: GatewayConfig, deviceName: string, print: (s: string) => void, ports: SignalPorts): Promise<string> {
  // Linking is an account-less call (signal-cli-jsonrpc(5) "Multi-account mode").
  const backend = signalBackend(config.signalCli.transport, null, ports);
  try {
    return await link(backend.signal, deviceName, print);
  } finally {
    await backend.close();
  }
}

async function link(signal: SignalBackend, deviceName: string, print: (s: string) => void): Promise<string> {
  const start = await signal.call("startLink", {}) as { deviceLinkUri?: string };
  const uri = start?.deviceLinkUri;
  if (typeof uri !== "string" || !uri.startsWith("sgnl://")) throw new Error("signal-cli did not return a sgnl:// link URI");
  print(await QRCode.toString(uri, { type: "terminal", small: true }));
  print(`Scan with Signal on your phone (Settings → Linked devices → Link new device), or open:\n${uri}\n`);
  // finishLink blocks until the phone scans: ten minutes, not the 15 s client timeout.
  const done = await signal.call("finishLink", { deviceLinkUri: uri, deviceName }, 10 * 60_000) as { number?: string };
  return typeof done?.number === "string" ? done.number : "";
}
