/**
 * `cairn-gateway`: the messaging gateway's runtime entry (SPEC §4.13), a
 * separate process that talks to the service only over HTTP. It reads the
 * environment (SIGNAL_GATEWAY_ALLOW_REMOTE) and files here and hands them in.
 */
import { cac } from "cac";
import { VERSION } from "./src/core/version.ts";
import { GatewayConfigError, loadGatewayConfig } from "./src/gateway/config.ts";
import { linkDevice, startGateway } from "./src/gateway/serve.ts";
import type { GatewayLog } from "./src/gateway/app.ts";
import { connectTcp, connectUnix, spawnStdio } from "./src/runtime/byte-conn.ts";
import { isDeno, onShutdown, readEnv, readSecretFile, serveFetch, writeStderr } from "./src/runtime/platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;
const args: string[] = isDeno ? g.Deno.args : g.process.argv.slice(2);
const exit = (code: number): never => {
  if (isDeno) g.Deno.exit(code);
  else g.process.exit(code);
  throw new Error("unreachable");
};
const log: GatewayLog = (level, msg, fields) => writeStderr(JSON.stringify({ ts: new Date().toISOString(), level, msg, ...fields }) + "\n");
const ports = { connectUnix, connectTcp, spawnStdio };
const load = (path: string) => loadGatewayConfig(path, { read: readSecretFile, env: readEnv() });

async function run(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    writeStderr(`cairn-gateway: ${e instanceof GatewayConfigError ? "config refused: " : ""}${msg}\n`);
    exit(1);
  }
}

const cli = cac("cairn-gateway");
cli.command("serve", "Serve the local gateway API, follow signal-cli and crank the drain")
  .option("--config <path>", "Gateway config file (JSON, owner-only)")
  .action((o: { config?: string }) => run(async () => {
    if (!o.config) throw new GatewayConfigError("--config PATH is required");
    const gw = await startGateway(await load(o.config), { version: VERSION, serveFetch, ports, log });
    onShutdown(() => {
      // A stop that still hangs (a forward inside its 15 s client timeout, a signal-cli that will not end) is cut off.
      setTimeout(() => {
        log("error", "shutdown did not finish in 30 s; exiting");
        exit(1);
      }, 30_000);
      void gw.stop().then(() => exit(0), () => exit(1));
    });
  }));
cli.command("link", "Link signal-cli as a secondary device of your Signal account (shows a QR code)")
  .option("--config <path>", "Gateway config file (JSON, owner-only)")
  .option("--device-name <name>", "Name shown in Signal's linked devices", { default: "cairn-gateway" })
  .action((o: { config?: string; deviceName: string }) => run(async () => {
    if (!o.config) throw new GatewayConfigError("--config PATH is required");
    const number = await linkDevice(await load(o.config), String(o.deviceName), (s) => writeStderr(s + "\n"), ports);
    writeStderr(`Linked${number ? ` as ${number.slice(0, 3)}…${number.slice(-2)}` : ""}.\n`);
  }));
cli.help();
cli.version(VERSION);
cli.parse(["node", "cairn-gateway", ...args], { run: false });
if (!cli.matchedCommand && !args.includes("--help") && !args.includes("-h") && !args.includes("--version") && !args.includes("-v")) {
  cli.outputHelp();
  exit(args.length === 0 ? 0 : 1);
}
await cli.runMatchedCommand();
