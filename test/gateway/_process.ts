/** Real-process helpers for gateway tests: spawn a bin, wait for a condition, an owner-only gateway config. */
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BRIDGE_TEXT, WEBHOOK_SECRET } from "../workflow/_setup.ts";

export const root = resolve(new URL("../..", import.meta.url).pathname);

/** Every child started here; a test's afterEach kills what is left. */
export const children: ChildProcess[] = [];

/** Kills the children that still run. */
export function killChildren(): void {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
}

/** Writes a file with owner-only bits (SPEC §5 item 10 refuses anything looser). */
export const ownerOnly = (p: string, text: string, mode = 0o600) => (writeFileSync(p, text), chmodSync(p, mode), p);

/** A port nothing listens on (right now). */
export { freePort } from "../_helpers/serve.ts";

/** `node bin/<bin> …args` with stdout and stderr collected; `exit` resolves with the code (or the signal name). */
export function start(bin: string, args: string[], env: Record<string, string> = {}): { proc: ChildProcess; out: () => string; exit: Promise<number | string> } {
  const proc = spawn("node", [join(root, "bin", bin), ...args], { cwd: root, env: { ...process.env, CAIRN_RUN_SOURCE: "1", ...env }, stdio: ["ignore", "pipe", "pipe"] });
  children.push(proc);
  let out = "";
  proc.stdout!.on("data", (d) => (out += String(d)));
  proc.stderr!.on("data", (d) => (out += String(d)));
  return { proc, out: () => out, exit: new Promise((r) => proc.once("exit", (code, sig) => r(code ?? sig ?? -1))) };
}

/** Polls `fn` until it yields a value; throws with the process output after `ms`. */
export async function until<T>(what: string, fn: () => Promise<T | undefined>, out: () => string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} did not happen: ${out()}`);
}

/** An owner-only gateway config in `dir` (and its secret and bridge files). */
export function gatewayConfig(dir: string, o: { servicePort: number; rpcUrl?: string; signalCli?: Record<string, unknown>; port?: number; server?: Record<string, unknown> }, mode = 0o600): string {
  return ownerOnly(join(dir, "gateway.json"), JSON.stringify({
    server: { bind: "127.0.0.1", port: o.port ?? 18080, ...o.server },
    signal_cli: o.signalCli ?? { rpc_url: o.rpcUrl },
    service: { base_url: `http://127.0.0.1:${o.servicePort}`, webhook_secret_file: ownerOnly(join(dir, "gw.secret"), WEBHOOK_SECRET) },
    bridge_config_path: ownerOnly(join(dir, "gw-bridge.signal.json"), BRIDGE_TEXT),
    drain_interval_secs: 5,
  }), mode);
}
