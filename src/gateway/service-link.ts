/**
 * The gateway's side of the service contract (SPEC §4.11, §4.13, §6;
 * src/workflow/README.md "Channels"): inbound direct text messages are
 * Standard-Webhooks signed to `POST /webhooks/channel/signal`; the drain
 * crank claims approved replies from `…/drain` and sends them (at least once
 * with a loud edge: a send failing after the service marked the row delivered
 * is logged at error level and not retried); mount registration posts the
 * bridge config digest, 5 attempts with linear backoff. Only the HMAC secret
 * is held toward the service, never a service token (SPEC §5 item 10).
 */
import { findTextViolation } from "../core/text-rule.ts";
import { signWebhook } from "../outbound/webhook-signature.ts";
import type { GatewayLog } from "./app.ts";
import { sha256Hex } from "./config.ts";
import type { SendGate } from "./limits.ts";
import { logsFailure, reconnectDelayMs, type StreamState } from "./reconnect.ts";
import { CLIENT_TIMEOUT_MS, type SignalBackend, type SignalEnvelope } from "./signal-cli.ts";

export interface ServiceLinkDeps {
  baseUrl: string;
  webhookSecret: string;
  signal: SignalBackend;
  sends: SendGate;
  log: GatewayLog;
  now?: () => number;
}

/** The kernel projection of a receive envelope, or null when it is not a direct text message (SPEC §4.13). */
export function projectInbound(env: SignalEnvelope | undefined): { conversation_ref: string; text: string; external_id: string } | null {
  const dm = env?.dataMessage;
  if (!env || !dm || typeof dm.message !== "string" || dm.message === "") return null;
  if (dm.groupInfo || dm.groupV2) return null; // only direct messages: no group id
  const sender = env.sourceUuid ?? env.sourceNumber ?? env.source;
  const ts = env.timestamp ?? dm.timestamp;
  if (typeof sender !== "string" || sender === "" || typeof ts !== "number") return null;
  return { conversation_ref: sender, text: dm.message, external_id: `${sender}:${ts}` };
}

async function signedPost(d: ServiceLinkDeps, path: string, body: string, id: string): Promise<Response> {
  const ts = Math.floor((d.now?.() ?? Date.now()) / 1000);
  return await fetch(d.baseUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts), "webhook-signature": await signWebhook(d.webhookSecret, id, ts, body) },
    body,
    redirect: "error",
    signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
  });
}

/** Forwards one receive notification; returns the service's status, or null when the message is not forwarded. */
export async function forwardInbound(d: ServiceLinkDeps, env: SignalEnvelope | undefined): Promise<string | null> {
  const envelope = projectInbound(env);
  if (!envelope) return null;
  // The text-field rule: the service would refuse such text (400), so it is not forwarded; logged without the text.
  const fault = findTextViolation(envelope);
  if (fault !== undefined) {
    d.log("warn", "inbound message not forwarded: it breaks the text-field rule", { field: fault.field, reason: fault.reason });
    return null;
  }
  // The webhook id derives from external_id: a redelivered message is refused by the service, not filed twice.
  const id = "msg_" + (await sha256Hex(envelope.external_id)).slice(0, 32);
  const res = await signedPost(d, "/webhooks/channel/signal", JSON.stringify({ envelope }), id);
  const out = await res.json().catch(() => ({})) as { status?: string; error?: { code?: string } };
  if (!res.ok) {
    d.log(res.status === 409 ? "info" : "error", "inbound message not filed", { status: res.status, code: out.error?.code });
    return null;
  }
  return out.status ?? null;
}

/** One turn of the drain crank: claims approved replies and sends each; returns how many went out. */
export async function drainOnce(d: ServiceLinkDeps): Promise<{ claimed: number; sent: number }> {
  const res = await signedPost(d, "/webhooks/channel/signal/drain", "{}", "drain_" + crypto.randomUUID());
  if (!res.ok) {
    d.log("error", "drain refused by the service", { status: res.status });
    return { claimed: 0, sent: 0 };
  }
  const { envelopes } = await res.json() as { envelopes: { id: number; run_id: number; conversation_ref: string; text: string }[] };
  let sent = 0;
  await Promise.all(envelopes.map(async (e) => {
    // A legacy row the service stored before its doors refused NUL reads back cut: never send a text that breaks the rule.
    const fault = findTextViolation(e.text, { at: "text" });
    if (fault !== undefined) {
      d.log("error", "reply not sent: it breaks the text-field rule", { envelope_id: e.id, run_id: e.run_id, reason: fault.reason });
      return;
    }
    try {
      await d.sends.run(() => d.signal.call("send", { recipient: [e.conversation_ref], message: e.text }));
      sent++;
    } catch (err) {
      // SPEC §6 loud edge: the service already marked the row delivered; it is not retried.
      d.log("error", "reply lost: send failed after the service marked it delivered (not retried)", { envelope_id: e.id, run_id: e.run_id, error: err instanceof Error ? err.message : String(err) });
    }
  }));
  return { claimed: envelopes.length, sent };
}

/** Registers the mount (SPEC §8: 5 attempts, linear backoff); throws a clear error after the last. */
export async function registerMount(d: ServiceLinkDeps & { bridgeConfigSha256: string; backoffMs?: number; sleep?: (ms: number) => Promise<void> }): Promise<{ mount_id: number }> {
  const sleep = d.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const body = JSON.stringify({ plugin: "cairn-gateway", kind: "signal", evidence: { bridge_config_sha256: d.bridgeConfigSha256 } });
  let last = "";
  for (let attempt = 1; attempt <= 5; attempt++) {
    try {
      // SPEC §5 item 10: signed with the channel secret like the webhooks; the gateway has no service token.
      const res = await signedPost(d, "/workflow/plugins/mount", body, `mount_${attempt}_${crypto.randomUUID()}`);
      const out = await res.json().catch(() => ({})) as { mount_id?: number; error?: { code?: string } };
      if (res.ok && typeof out.mount_id === "number") return { mount_id: out.mount_id };
      last = `HTTP ${res.status}${out.error?.code ? ` ${out.error.code}` : ""}`;
    } catch (e) {
      last = e instanceof Error ? e.message : String(e);
    }
    d.log("warn", "mount registration failed", { attempt, reason: last });
    if (attempt < 5) await sleep((d.backoffMs ?? 1000) * attempt);
  }
  throw new Error(`mount registration failed after 5 attempts (${last}): check service.base_url, that the service runs with CAIRN_CHANNEL_BRIDGE_CONFIG naming the same bridge config and CAIRN_CHANNEL_WEBHOOK_SECRET_FILE holding the same secret`);
}

/** Options of `followInbound`: the shared stream state (for `/v1/health`) and the wait between attempts. */
export interface FollowOptions {
  state?: StreamState;
  /** Waits `ms` or until `signal` aborts, whichever comes first (tests inject their own). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Follows signal-cli's receive stream and forwards each message until `signal` aborts. A lost or refused stream is
 * retried after 1 s, 2 s, 4 s … up to 60 s (src/gateway/reconnect.ts), logged at the 1st, 2nd, 4th … failure in a
 * row; a stream that opens resets both. After an abort no further message is forwarded (a backlog signal-cli already
 * sent is dropped, as a kill would drop it; the one being forwarded finishes within the 15 s client timeout).
 */
export async function followInbound(d: ServiceLinkDeps, signal: AbortSignal, o: FollowOptions = {}): Promise<void> {
  const state = o.state ?? { failures: 0, retryAt: null };
  const sleep = o.sleep ?? abortableSleep;
  const now = o.now ?? Date.now;
  const opened = () => {
    if (state.failures > 0) d.log("info", "signal-cli event stream restored", { after_failed_attempts: state.failures });
    state.failures = 0;
    state.retryAt = null;
  };
  while (!signal.aborted) {
    let error: unknown = new Error("signal-cli closed the event stream");
    try {
      for await (const ev of d.signal.events(signal, opened)) {
        if (signal.aborted) break;
        await forwardInbound(d, ev.envelope).catch((e) => d.log("error", "inbound forward failed", { error: e instanceof Error ? e.message : String(e) }));
      }
    } catch (e) {
      error = e;
    }
    if (signal.aborted) return;
    state.failures++;
    const wait = reconnectDelayMs(state.failures);
    state.retryAt = now() + wait;
    if (logsFailure(state.failures)) {
      d.log("warn", "signal-cli event stream lost; reconnecting", { failed_attempts: state.failures, retry_in_s: wait / 1000, error: error instanceof Error ? error.message : String(error) });
    }
    await sleep(wait, signal);
  }
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
