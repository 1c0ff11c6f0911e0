/**
 * One Standard-Webhooks sender for every opt-in webhook (SPEC §5 item 8,
 * §6): a signed POST of `{type, timestamp, data}` with an RFC 3339
 * `webhook-timestamp`, retried up to three times (four attempts in all) with
 * the same `webhook-id` on a 5xx answer, a network error or a timeout. Each
 * attempt is re-signed with its own timestamp; the body is identical across
 * attempts. 4xx answers, redirects and refused destinations are final.
 */
import type { OutboundClient, SendFailure } from "./outbound-client.ts";
import { rfc3339, signWebhook, type WebhookSecret } from "./webhook-signature.ts";

/** Configuration shared by the alert and erasure webhooks. */
export interface SignedSenderConfig {
  /** Destination; its origin must be in the client's allowlist. */
  url: string;
  secret: WebhookSecret;
  client: OutboundClient;
  /** Retries after the first attempt; default 3. */
  retries?: number;
  /** Wait before retry n (last value repeats); default 1 s, 5 s, 25 s. */
  backoffMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  /** Delivery id generator; default `msg_` + a random UUID without dashes. */
  newId?: () => string;
}

/** Outcome of one delivery. */
export type Delivery =
  | { delivered: true; id: string; attempts: number; status: number }
  | { delivered: false; id: string; attempts: number; reason: SendFailure | "http_status"; status?: number };

/** Builds a sender of payloads of one `type`. */
export function createSignedSender(config: SignedSenderConfig, type: string): { send(data: unknown): Promise<Delivery> } {
  const retries = config.retries ?? 3;
  const backoff = config.backoffMs ?? [1_000, 5_000, 25_000];
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = config.now ?? (() => new Date());
  const newId = config.newId ?? (() => "msg_" + crypto.randomUUID().replaceAll("-", ""));
  return {
    async send(data) {
      const id = newId();
      const body = JSON.stringify({ type, timestamp: rfc3339(now()), data });
      let last: Delivery = { delivered: false, id, attempts: 0, reason: "network" };
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        if (attempt > 1) await sleep(backoff[Math.min(attempt - 2, backoff.length - 1)] ?? 0);
        const timestamp = rfc3339(now());
        const headers = {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": timestamp,
          "webhook-signature": await signWebhook(config.secret, id, timestamp, body),
        };
        const result = await config.client.send(config.url, { method: "POST", headers, body });
        if (result.sent) {
          const status = result.response.status;
          await result.response.body?.cancel().catch(() => {});
          if (status < 300) return { delivered: true, id, attempts: attempt, status };
          last = { delivered: false, id, attempts: attempt, reason: "http_status", status };
          if (status < 500) return last; // 4xx will not get better by repeating
        } else {
          last = { delivered: false, id, attempts: attempt, reason: result.reason, ...(result.status ? { status: result.status } : {}) };
          if (result.reason !== "network" && result.reason !== "timeout") return last; // refusals are permanent
        }
      }
      return last;
    },
  };
}
