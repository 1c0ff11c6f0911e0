/**
 * The security part of the configuration (SPEC §1 Runtime rules, §5, §8):
 * credentials, the RBAC roleless posture, rate limits, watchdogs and the
 * opt-in outbound destinations. Parsed once at boot with the rest of the
 * config; the secret files themselves are read (and their mode checked) by
 * `src/auth/load-credentials.ts` when the memory opens.
 */
import { ConfigError, readBool, readEnum, readInt, readString } from "./read-var.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** How the API authenticates (SPEC §5 items 1–2). */
export interface AuthConfig {
  /** Inline opaque bearer token (`AUTH_TOKEN`); the file form is preferred. */
  token?: string;
  /** Opaque bearer token file (`AUTH_TOKEN_FILE`), owner-only mode required. */
  tokenFile?: string;
  /** HS256 JWT secret file (`CAIRN_JWT_SECRET_FILE`), owner-only mode required. */
  jwtSecretFile?: string;
  /** EdDSA (Ed25519) or ES256 (P-256) public key file, PEM SPKI (`CAIRN_JWT_PUBLIC_KEY_FILE`). */
  jwtPublicKeyFile?: string;
  /** Required `iss` claim when set (`CAIRN_JWT_ISSUER`). */
  jwtIssuer?: string;
  /** Required `aud` claim when set (`CAIRN_JWT_AUDIENCE`). */
  jwtAudience?: string;
  /** `CAIRN_RBAC_ROLELESS_POSTURE`: what the oracle does for a principal with an empty roles claim. */
  rolelessPosture: "pass" | "deny";
  /** True when any credential is configured: the router then requires one on every non-public route. */
  credentialConfigured: boolean;
}

/** Per-IP request budget (SPEC §8). */
export interface RateLimitConfig {
  /** Requests per window per client (10,000; `CAIRN_RATE_LIMIT_MAX`). */
  max: number;
  /** Window length in ms (60 s; `CAIRN_RATE_LIMIT_WINDOW_S`). */
  windowMs: number;
  /** Tracked buckets before the oldest 25% are evicted (`RATE_LIMIT_MAX_KEYS`, 10,000). */
  maxKeys: number;
  /** `CAIRN_TRUST_PROXY=1`: the client is the rightmost `X-Forwarded-For` entry. */
  trustProxy: boolean;
}

/** Connection and RSS watchdogs (SPEC §8). */
export interface WatchdogConfig {
  /** Tick interval in ms (30 s). */
  intervalMs: number;
  /** A request held longer than this is flagged (300 s). */
  slotMaxMs: number;
  /** `CAIRN_RSS_RESTART=1`: exit after two consecutive samples over the RSS envelope. */
  rssRestart: boolean;
}

/** Opt-in outbound destinations (SPEC §1 item 10, §6). */
export interface OutboundSettings {
  /** `CAIRN_ALERT_WEBHOOK_URL` and its secret file `CAIRN_ALERT_WEBHOOK_SECRET_FILE`. */
  alertWebhookUrl?: string;
  alertWebhookSecretFile?: string;
  /** `CAIRN_ERASURE_WEBHOOK_URL` and its secret file `CAIRN_ERASURE_WEBHOOK_SECRET_FILE`. */
  erasureWebhookUrl?: string;
  erasureWebhookSecretFile?: string;
  /** Secret file for inbound signed channel webhooks (`CAIRN_CHANNEL_WEBHOOK_SECRET_FILE`). */
  channelWebhookSecretFile?: string;
  /** `CAIRN_OUTBOUND_ALLOW_LOOPBACK=1` lets tests and local sinks reach 127/8 and ::1; other private ranges stay refused. */
  allowLoopback: boolean;
}

/** The security settings parsed from the environment. */
export interface SecurityConfig {
  auth: AuthConfig;
  rateLimit: RateLimitConfig;
  watchdog: WatchdogConfig;
  outbound: OutboundSettings;
}

/**
 * Parses the security settings. SPEC §1: an unauthenticated router is never
 * built on a public interface, so `BIND_PUBLIC=1` or a non-loopback bind
 * without a configured credential refuses boot.
 */
export function parseSecurityConfig(env: Env, bind: { loopback: boolean; bindPublic: boolean }): SecurityConfig {
  const token = readString(env, "AUTH_TOKEN");
  const tokenFile = readString(env, "AUTH_TOKEN_FILE");
  if (token !== undefined && tokenFile !== undefined) {
    throw new ConfigError("AUTH_TOKEN and AUTH_TOKEN_FILE are both set: keep only AUTH_TOKEN_FILE (the preferred form)");
  }
  const jwtSecretFile = readString(env, "CAIRN_JWT_SECRET_FILE");
  const jwtPublicKeyFile = readString(env, "CAIRN_JWT_PUBLIC_KEY_FILE");
  const credentialConfigured = [token, tokenFile, jwtSecretFile, jwtPublicKeyFile].some((v) => v !== undefined);
  if (!credentialConfigured && (bind.bindPublic || !bind.loopback)) {
    throw new ConfigError(
      "BIND_PUBLIC=1 requires a credential: set AUTH_TOKEN_FILE (or CAIRN_JWT_SECRET_FILE / CAIRN_JWT_PUBLIC_KEY_FILE); an unauthenticated router is only built on loopback",
    );
  }
  return {
    auth: {
      token, tokenFile, jwtSecretFile, jwtPublicKeyFile,
      jwtIssuer: readString(env, "CAIRN_JWT_ISSUER"),
      jwtAudience: readString(env, "CAIRN_JWT_AUDIENCE"),
      rolelessPosture: readEnum(env, "CAIRN_RBAC_ROLELESS_POSTURE", ["pass", "deny"] as const, "pass"),
      credentialConfigured,
    },
    rateLimit: {
      max: readInt(env, "CAIRN_RATE_LIMIT_MAX", 10_000, 1, 100_000_000),
      windowMs: readInt(env, "CAIRN_RATE_LIMIT_WINDOW_S", 60, 1, 86_400) * 1000,
      maxKeys: readInt(env, "RATE_LIMIT_MAX_KEYS", 10_000, 4, 10_000_000),
      trustProxy: readBool(env, "CAIRN_TRUST_PROXY", false),
    },
    watchdog: {
      intervalMs: 30_000,
      slotMaxMs: 300_000,
      rssRestart: readBool(env, "CAIRN_RSS_RESTART", false),
    },
    outbound: {
      alertWebhookUrl: readUrl(env, "CAIRN_ALERT_WEBHOOK_URL"),
      alertWebhookSecretFile: readString(env, "CAIRN_ALERT_WEBHOOK_SECRET_FILE"),
      erasureWebhookUrl: readUrl(env, "CAIRN_ERASURE_WEBHOOK_URL"),
      erasureWebhookSecretFile: readString(env, "CAIRN_ERASURE_WEBHOOK_SECRET_FILE"),
      channelWebhookSecretFile: readString(env, "CAIRN_CHANNEL_WEBHOOK_SECRET_FILE"),
      allowLoopback: readBool(env, "CAIRN_OUTBOUND_ALLOW_LOOPBACK", false),
    },
  };
}

function readUrl(env: Env, name: string): string | undefined {
  const v = readString(env, name);
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL`);
  }
  // The value is not echoed: a webhook URL may carry a credential in its path or query.
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError(`${name} must be an http(s) URL`);
  const secretVar = name.replace(/_URL$/, "_SECRET_FILE");
  if (readString(env, secretVar) === undefined) throw new ConfigError(`${name} is set but ${secretVar} is not: webhooks are always signed`);
  return url.href;
}
