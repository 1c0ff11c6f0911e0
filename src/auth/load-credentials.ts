/**
 * Reads the secret files named by the configuration at boot (SPEC §5 items
 * 1, 8, 11): the bearer token, the JWT keys and the webhook secrets. Secret
 * files must be owner-only (mode 0600 or stricter) or boot is refused; an
 * empty file counts as no credential and is refused too. File I/O enters
 * through the `readSecretFile` port (the runtime adapter supplies it).
 */
import type { Config } from "../config/config.ts";
import { ConfigError } from "../config/read-var.ts";
import { isMemoryError } from "../core/errors.ts";
import { importHs256Secret, importPublicKeyPem, type JwtKeys } from "./jwt-keys.ts";

/** Reads a file's text and its permission bits. */
export type ReadSecretFile = (path: string) => Promise<{ text: string; mode: number }>;

/** What the authenticator verifies against. */
export interface Credentials {
  /** The opaque bearer token, when configured. */
  bearerToken?: string;
  /** JWT verification keys by algorithm. */
  jwtKeys: JwtKeys;
  /** True when any credential is configured: then every non-public route requires one. */
  required: boolean;
}

/** Webhook shared secrets (raw text, `whsec_…` or plain). */
export interface WebhookSecrets {
  alert?: string;
  erasure?: string;
  channel?: string;
}

/** Loads every configured secret; throws ConfigError (refuse boot) on a bad mode, an empty file or a bad key. */
export async function loadSecrets(config: Config, read: ReadSecretFile | undefined): Promise<{ credentials: Credentials; webhooks: WebhookSecrets }> {
  const a = config.auth;
  const o = config.outbound;
  const need = [a.tokenFile, a.jwtSecretFile, a.jwtPublicKeyFile, o.alertWebhookSecretFile, o.erasureWebhookSecretFile, o.channelWebhookSecretFile];
  if (need.some((p) => p !== undefined) && !read) throw new ConfigError("Secret files are configured but this runtime cannot read files");
  const secret = async (name: string, path: string | undefined): Promise<string | undefined> =>
    path === undefined ? undefined : await readOwnerOnly(read!, name, path);

  const jwtKeys: JwtKeys = {};
  const hs = await secret("CAIRN_JWT_SECRET_FILE", a.jwtSecretFile);
  if (hs !== undefined) jwtKeys.HS256 = await asConfig("CAIRN_JWT_SECRET_FILE", () => importHs256Secret(hs));
  if (a.jwtPublicKeyFile !== undefined) {
    const pem = await readNonEmpty(read!, "CAIRN_JWT_PUBLIC_KEY_FILE", a.jwtPublicKeyFile);
    const { alg, key } = await asConfig("CAIRN_JWT_PUBLIC_KEY_FILE", () => importPublicKeyPem(pem));
    jwtKeys[alg] = key;
  }
  let bearerToken = a.token;
  const fromFile = await secret("AUTH_TOKEN_FILE", a.tokenFile);
  if (fromFile !== undefined) bearerToken = fromFile.trim();
  const credentials: Credentials = { jwtKeys, required: a.credentialConfigured };
  if (bearerToken !== undefined) credentials.bearerToken = bearerToken;
  return {
    credentials,
    webhooks: {
      alert: await secret("CAIRN_ALERT_WEBHOOK_SECRET_FILE", o.alertWebhookSecretFile),
      erasure: await secret("CAIRN_ERASURE_WEBHOOK_SECRET_FILE", o.erasureWebhookSecretFile),
      channel: await secret("CAIRN_CHANNEL_WEBHOOK_SECRET_FILE", o.channelWebhookSecretFile),
    },
  };
}

async function readNonEmpty(read: ReadSecretFile, name: string, path: string): Promise<string> {
  let file: { text: string; mode: number };
  try {
    file = await read(path);
  } catch {
    // SPEC §7: messages carry no paths.
    throw new ConfigError(`${name} names a file that cannot be read`);
  }
  if (file.text.trim() === "") throw new ConfigError(`${name} is empty: an empty credential counts as none`);
  return file.text;
}

/** Reads an owner-only secret file (mode 0600 or stricter), trimmed; ConfigError naming the variable otherwise. */
export async function readOwnerOnly(read: ReadSecretFile, name: string, path: string): Promise<string> {
  let file: { text: string; mode: number };
  try {
    file = await read(path);
  } catch {
    throw new ConfigError(`${name} names a file that cannot be read`);
  }
  // SPEC §5 item 1: the token file must be mode 0600; group or world bits refuse boot.
  if ((file.mode & 0o077) !== 0) {
    throw new ConfigError(`${name} must be owner-only (chmod 600), got mode 0${(file.mode & 0o777).toString(8)}`);
  }
  if (file.text.trim() === "") throw new ConfigError(`${name} is empty: an empty credential counts as none`);
  return file.text.trim();
}

async function asConfig<T>(name: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isMemoryError(e)) throw new ConfigError(`${name}: ${e.message}`);
    throw e;
  }
}
