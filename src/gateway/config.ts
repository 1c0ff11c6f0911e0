/**
 * The gateway's config file (SPEC §4.13, §5 item 10, §8 gateway rows): JSON,
 * owner-only like the shared bridge config and the webhook secret file, each
 * refused at load when it carries group or world permission bits. A
 * non-loopback bind needs `SIGNAL_GATEWAY_ALLOW_REMOTE=1` plus a token; the
 * runtime entry reads the environment and passes it in (STYLE rule 5).
 */

/** A refused gateway config: one line, never a secret's value. */
export class GatewayConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GatewayConfigError";
  }
}

/** Reads a file's text and permission bits (the runtime's `readSecretFile`). */
export type ReadModeFile = (path: string) => Promise<{ text: string; mode: number }>;

/**
 * How the gateway reaches signal-cli (signal-cli-jsonrpc(5)): connect to a running daemon over HTTP
 * (`daemon --http`), a UNIX socket (`daemon --socket PATH`) or TCP (`daemon --tcp HOST:PORT`), or start
 * `signal-cli [--config DATA_DIR] jsonRpc` itself and speak over its stdin/stdout.
 */
export type SignalTransport =
  | { kind: "http"; url: string }
  | { kind: "socket"; path: string }
  | { kind: "tcp"; host: string; port: number }
  | { kind: "spawn"; path: string; dataDir: string | null };

/** The loaded, validated gateway config. */
export interface GatewayConfig {
  server: { bind: string; port: number; authToken: string | null };
  signalCli: { transport: SignalTransport; account: string | null };
  service: { baseUrl: string; webhookSecret: string };
  /** SHA-256 hex of the shared bridge config bytes (the mount evidence, SPEC §4.11). */
  bridgeConfigSha256: string;
  drainIntervalSecs: number;
  maxSendsPerSecond: number;
}

const DRAIN_DEFAULT = 30;
const DRAIN_FLOOR = 5; // SPEC §8 "Gateway brain drain interval": default 30, floored to 5
const SENDS_DEFAULT = 5;

/** True for a loopback host name or address. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Loads and validates the config at `path`; reads the webhook secret and the bridge config it names. */
export async function loadGatewayConfig(path: string, opts: { read: ReadModeFile; env: Readonly<Record<string, string | undefined>> }): Promise<GatewayConfig> {
  const raw = await ownerOnly(opts.read, path, "gateway config");
  let doc: unknown;
  try {
    doc = JSON.parse(raw);
  } catch {
    throw new GatewayConfigError("gateway config: not valid JSON");
  }
  const root = obj(doc, "(root)");
  const server = obj(root.server ?? {}, "server");
  const bind = str(server.bind ?? "127.0.0.1", "server.bind");
  // SPEC §1 Runtime rules, as for the service: a bad port refuses to start and never binds a random one (0).
  const port = int(server.port ?? 8080, "server.port", 1, 65535);
  const tokenRaw = server.auth_token === undefined || server.auth_token === null ? "" : str(server.auth_token, "server.auth_token", true);
  // SPEC §5 item 10: an empty string counts as no credential.
  const authToken = tokenRaw === "" ? null : tokenRaw;
  if (!isLoopback(bind)) {
    if (opts.env.SIGNAL_GATEWAY_ALLOW_REMOTE !== "1") throw new GatewayConfigError(`server.bind: ${bind} is not loopback; set SIGNAL_GATEWAY_ALLOW_REMOTE=1 and server.auth_token to serve beyond this machine`);
    if (!authToken) throw new GatewayConfigError(`server.auth_token: a non-loopback bind (${bind}) needs a non-empty token`);
  }
  const sc = obj(root.signal_cli, "signal_cli");
  const account = sc.account === undefined || sc.account === null ? null : str(sc.account, "signal_cli.account");
  if (account !== null && !/^\+[1-9]\d{6,13}$/.test(account)) throw new GatewayConfigError("signal_cli.account: must be an E.164 number (+ then 7 to 14 digits)");
  const transport = signalTransport(sc, account);
  const svc = obj(root.service, "service");
  const baseUrl = url(svc.base_url, "service.base_url").replace(/\/+$/, "");
  const secretFile = str(svc.webhook_secret_file, "service.webhook_secret_file");
  const webhookSecret = (await ownerOnly(opts.read, secretFile, "service.webhook_secret_file")).trim();
  if (webhookSecret === "") throw new GatewayConfigError("service.webhook_secret_file: the secret file is empty");
  const bridgePath = str(root.bridge_config_path, "bridge_config_path");
  const bridgeText = await ownerOnly(opts.read, bridgePath, "bridge_config_path");
  const drain = int(root.drain_interval_secs ?? DRAIN_DEFAULT, "drain_interval_secs", 0, 86_400);
  const sends = int(root.max_sends_per_second ?? SENDS_DEFAULT, "max_sends_per_second", 1, 1000);
  return {
    server: { bind, port, authToken },
    signalCli: { transport, account },
    service: { baseUrl, webhookSecret },
    bridgeConfigSha256: await sha256Hex(bridgeText),
    drainIntervalSecs: Math.max(DRAIN_FLOOR, drain),
    maxSendsPerSecond: sends,
  };
}

function signalTransport(sc: Record<string, unknown>, account: string | null): SignalTransport {
  const given = ["rpc_url", "socket", "tcp", "path"].filter((k) => sc[k] !== undefined && sc[k] !== null);
  if (given.length !== 1) throw new GatewayConfigError("signal_cli: set exactly one of rpc_url, socket, tcp or path");
  if (sc.data_dir !== undefined && given[0] !== "path") throw new GatewayConfigError("signal_cli.data_dir: only with signal_cli.path (the gateway starts signal-cli)");
  switch (given[0]) {
    case "rpc_url":
      return { kind: "http", url: url(sc.rpc_url, "signal_cli.rpc_url") };
    case "socket":
      return { kind: "socket", path: str(sc.socket, "signal_cli.socket") };
    case "tcp": {
      const m = /^(.+):(\d{1,5})$/.exec(str(sc.tcp, "signal_cli.tcp"));
      const port = m ? Number(m[2]) : 0;
      if (!m || port < 1 || port > 65535) throw new GatewayConfigError("signal_cli.tcp: must be HOST:PORT");
      return { kind: "tcp", host: m[1]!.replace(/^\[|\]$/g, ""), port };
    }
    default: {
      // A started signal-cli runs in multi-account mode (so `link` can add the account): every call names the account.
      if (account === null) throw new GatewayConfigError("signal_cli.account: required with signal_cli.path (the started signal-cli serves every local account)");
      return { kind: "spawn", path: str(sc.path, "signal_cli.path"), dataDir: sc.data_dir === undefined || sc.data_dir === null ? null : str(sc.data_dir, "signal_cli.data_dir") };
    }
  }
}

async function ownerOnly(read: ReadModeFile, path: string, what: string): Promise<string> {
  let file: { text: string; mode: number };
  try {
    file = await read(path);
  } catch {
    throw new GatewayConfigError(`${what}: the file cannot be read`);
  }
  // SPEC §5 item 10: group or world bits refuse the file.
  if ((file.mode & 0o077) !== 0) throw new GatewayConfigError(`${what}: the file must be owner-only (chmod 600), found mode ${(file.mode & 0o777).toString(8)}`);
  return file.text;
}

function obj(v: unknown, field: string): Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new GatewayConfigError(`${field}: must be an object`);
  return v as Record<string, unknown>;
}

function str(v: unknown, field: string, allowEmpty = false): string {
  if (typeof v !== "string" || (!allowEmpty && v.trim() === "")) throw new GatewayConfigError(`${field}: must be a non-empty string`);
  return v;
}

function int(v: unknown, field: string, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) throw new GatewayConfigError(`${field}: must be an integer from ${min} to ${max}`);
  return v;
}

function url(v: unknown, field: string): string {
  const s = str(v, field);
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    throw new GatewayConfigError(`${field}: must be an http(s) URL`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new GatewayConfigError(`${field}: must be an http(s) URL`);
  return s;
}

/** SHA-256 hex of a string's UTF-8 bytes. */
export async function sha256Hex(text: string): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
}
