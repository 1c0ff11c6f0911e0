/**
 * One call to an OpenAI-compatible `POST …/chat/completions` endpoint
 * (SPEC §1 items 3 and 10; issue 17), through the guarded outbound client
 * (configured origin only, deny table, no redirects, 15 s deadline). Every
 * call is counted on `/metrics` by outcome, and a reply's `usage` block is
 * added to the token counters. Anything but a well-formed 2xx reply with a
 * non-empty message and a `usage` block fails closed: 503
 * `provider_unavailable` (nothing usable came back: unreachable, refused by
 * the egress guard, timed out) or 502 `provider_failed` (the provider
 * answered wrongly: an error status, a redirect, a malformed body). An
 * unmetered reply is refused too, so every answer the lane uses was counted.
 */
import { MemoryError } from "../core/errors.ts";
import type { OutboundClient } from "../outbound/outbound-client.ts";

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** A completed call: the first choice's text and the reply's token usage. */
export interface ChatReply {
  text: string;
  usage: { prompt_tokens: number; completion_tokens: number };
  model: string;
}

/** Where the calls are counted (`memory.security.metrics`). */
export interface ProviderMeter {
  addProviderTokens(provider: string, tokens: { prompt?: number; completion?: number }): void;
  providerCall(provider: string, outcome: string): void;
}

/** The lane's client settings. */
export interface ChatSettings {
  endpoint: string;
  key: string;
  model: string;
  name: string;
  maxTokens: number;
  client: OutboundClient;
  meter: ProviderMeter;
}

/** Largest reply body read, in bytes. */
export const MAX_REPLY_BYTES = 1024 * 1024;

const count = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;

/** Sends the messages; the reply or a fail-closed MemoryError. */
export async function chatComplete(s: ChatSettings, messages: ChatMessage[]): Promise<ChatReply> {
  const fail = (outcome: string, code: "provider_unavailable" | "provider_failed", message: string, details: Record<string, unknown> = {}): never => {
    s.meter.providerCall(s.name, outcome);
    throw new MemoryError(code, message, { provider: s.name, outcome, ...details }, code === "provider_unavailable" ? 503 : 502);
  };
  const sent = await s.client.send(s.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", authorization: `Bearer ${s.key}` },
    body: JSON.stringify({ model: s.model, messages, max_tokens: s.maxTokens, temperature: 0, stream: false }),
  });
  if (!sent.sent) {
    if (sent.reason === "redirect") return fail("redirect", "provider_failed", "The model provider answered with a redirect, which is refused", { status: sent.status });
    const outcome = sent.reason === "timeout" ? "timeout" : sent.reason === "network" || sent.reason === "resolve_failed" ? "unreachable" : "refused";
    return fail(outcome, "provider_unavailable", `The model provider is unavailable (${sent.reason})`);
  }
  const res = sent.response;
  let text: string;
  try {
    text = await readCapped(res);
  } catch (e) {
    const timedOut = (e as Error).name === "TimeoutError" || (e as Error).name === "AbortError";
    return fail(timedOut ? "timeout" : "malformed", timedOut ? "provider_unavailable" : "provider_failed", timedOut ? "The model provider did not finish its reply in time" : "The model provider's reply was unreadable");
  }
  if (res.status < 200 || res.status > 299) return fail("http_error", "provider_failed", `The model provider answered ${res.status}`, { status: res.status });
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail("malformed", "provider_failed", "The model provider's reply is not JSON");
  }
  const b = body as { choices?: { message?: { content?: unknown } }[]; usage?: { prompt_tokens?: unknown; completion_tokens?: unknown }; model?: unknown };
  const content = Array.isArray(b?.choices) ? b.choices[0]?.message?.content : undefined;
  const usage = b?.usage;
  if (!usage || !count(usage.prompt_tokens) || !count(usage.completion_tokens)) {
    return fail("malformed", "provider_failed", "The model provider's reply has no usage block, so it cannot be metered");
  }
  // Tokens were spent whatever the content: meter them before judging it.
  s.meter.addProviderTokens(s.name, { prompt: usage.prompt_tokens as number, completion: usage.completion_tokens as number });
  if (typeof content !== "string" || content.trim() === "") return fail("malformed", "provider_failed", "The model provider's reply has no message content");
  s.meter.providerCall(s.name, "ok");
  return {
    text: content.trim(),
    usage: { prompt_tokens: usage.prompt_tokens as number, completion_tokens: usage.completion_tokens as number },
    model: typeof b.model === "string" && b.model.length <= 128 ? b.model : s.model,
  };
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.byteLength;
    if (n > MAX_REPLY_BYTES) {
      await reader.cancel().catch(() => {});
      throw new Error("reply too large");
    }
    chunks.push(value);
  }
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.byteLength; }
  return new TextDecoder("utf-8", { fatal: true }).decode(all);
}
