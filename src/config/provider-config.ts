/**
 * The opt-in model-provider lane's configuration (SPEC §1 items 3 and 10,
 * issue 17). Off unless `CAIRN_PROVIDER_URL` names an OpenAI-compatible
 * chat-completions endpoint (llama.cpp, Ollama and vLLM speak it) and
 * `CAIRN_PROVIDER_KEY_FILE` names its key; one without the other refuses
 * boot. The key file itself is read (and its owner-only mode checked) when
 * the memory opens (`src/provider/provider-key.ts`).
 */
import { ConfigError, readInt, readString } from "./read-var.ts";

type Env = Readonly<Record<string, string | undefined>>;

/** The lane's settings; `undefined` when the lane is off. */
export interface ProviderConfig {
  /** The chat-completions URL the lane posts to (derived from `CAIRN_PROVIDER_URL`). */
  endpoint: string;
  /** `CAIRN_PROVIDER_KEY_FILE`: the bearer key, owner-only (chmod 600). */
  keyFile: string;
  /** `CAIRN_PROVIDER_MODEL` (default `default`; llama.cpp ignores it, Ollama and vLLM need a served model name). */
  model: string;
  /** `CAIRN_PROVIDER_NAME`: the `provider` label on `/metrics` (default the URL's host). */
  name: string;
  /** `CAIRN_PROVIDER_TIMEOUT_MS`: 1..15000, default 15000 (SPEC §8: outbound clients time out at 15 s). */
  timeoutMs: number;
  /** `CAIRN_PROVIDER_MAX_TOKENS`: completion budget per call, default 1024. */
  maxTokens: number;
}

/**
 * The chat-completions URL of a configured base: a URL ending in `/chat/completions` is used as is, one ending in
 * `/v1` (the OpenAI `base_url` convention) gets `/chat/completions`, any other gets `/v1/chat/completions`.
 */
export function chatCompletionsUrl(base: URL): string {
  const path = base.pathname.replace(/\/+$/, "");
  const suffix = path.endsWith("/chat/completions") ? "" : path.endsWith("/v1") ? "/chat/completions" : "/v1/chat/completions";
  return `${base.origin}${path}${suffix}`;
}

/**
 * The default `provider` label: the URL's host. An IPv6 literal (`[::1]:8080`) loses its brackets, which the label
 * pattern refuses, and is prefixed `ipv6-` so the label starts with a letter as the pattern requires.
 */
function defaultProviderName(url: URL): string {
  if (!url.hostname.startsWith("[")) return url.host;
  return `ipv6-${url.hostname.slice(1, -1)}${url.port ? `:${url.port}` : ""}`;
}

/** Parses the lane's settings. */
export function parseProviderConfig(env: Env): { provider?: ProviderConfig } {
  const raw = readString(env, "CAIRN_PROVIDER_URL");
  const keyFile = readString(env, "CAIRN_PROVIDER_KEY_FILE");
  if (raw === undefined && keyFile === undefined) return {};
  if (raw === undefined) throw new ConfigError("CAIRN_PROVIDER_KEY_FILE is set but CAIRN_PROVIDER_URL is not");
  if (keyFile === undefined) throw new ConfigError("CAIRN_PROVIDER_URL is set but CAIRN_PROVIDER_KEY_FILE is not: the provider lane needs a key file (any text for a keyless local server)");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError("CAIRN_PROVIDER_URL must be an http(s) URL");
  }
  // The value is not echoed: a URL may carry a credential.
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new ConfigError("CAIRN_PROVIDER_URL must be an http(s) URL");
  if (url.username || url.password || url.search || url.hash) throw new ConfigError("CAIRN_PROVIDER_URL must carry no credentials, query or fragment (the key goes in CAIRN_PROVIDER_KEY_FILE)");
  const name = readString(env, "CAIRN_PROVIDER_NAME", defaultProviderName(url));
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/.test(name)) throw new ConfigError("CAIRN_PROVIDER_NAME must be 1-64 letters, digits, '_', '.', ':' or '-'");
  return {
    provider: {
      endpoint: chatCompletionsUrl(url), keyFile, name,
      model: readString(env, "CAIRN_PROVIDER_MODEL", "default"),
      timeoutMs: readInt(env, "CAIRN_PROVIDER_TIMEOUT_MS", 15_000, 1, 15_000),
      maxTokens: readInt(env, "CAIRN_PROVIDER_MAX_TOKENS", 1024, 1, 32_768),
    },
  };
}
