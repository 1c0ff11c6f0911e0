/**
 * The erasure webhook (SPEC §1 item 10, §6): after a successful erasure the
 * service POSTs a Standard-Webhooks-signed notice to the configured
 * destination through the guarded outbound client. The payload shape and the
 * retry policy are this project's choice (the spec leaves both open): body
 * `{type: "erasure.completed", timestamp, data}` with an RFC 3339 timestamp,
 * retried like the alert webhook (up to three retries, same delivery id) on a
 * 5xx, a network error or a timeout. `data` must hold no raw personal data.
 */
import type { OutboundClient, SendFailure } from "./outbound-client.ts";
import { rfc3339, signWebhook, type WebhookSecret } from "./webhook-signature.ts";

/** What one erasure reports (hashed subject and counts, never the erased content). */
export type ErasureNotice = Record<string, unknown>;

/** Outcome of one delivery. */
export type ErasureDelivery =
  | { delivered: true; id: string; attempts: number; status: number }
  | { delivered: false; id: string; attempts: number; reason: SendFailure | "http_status"; status?: number };

/** Configuration of `createErasureSender`. */
export interface ErasureWebhookConfig {
  url: string;
  secret: WebhookSecret;
  client: OutboundClient;
  retries?: number;
  backoffMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
  now?: () => Date;
  newId?: () => string;
}

/** Sends erasure notices. */
export interface ErasureSender {
  send(notice: ErasureNotice): Promise<ErasureDelivery>;
}

/** Builds the sender. */
export function createErasureSender(config: ErasureWebhookConfig): ErasureSender {
  const retries = config.retries ?? 3;
  const backoff = config.backoffMs ?? [1_000, 5_000, 25_000];
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = config.now ?? (() => new Date());
  const newId = config.newId ?? (() => "msg_" + crypto.randomUUID().replaceAll("-", ""));
  return {
    async send(notice) {
      const id = newId();
      const body = JSON.stringify({ type: "erasure.completed", timestamp: rfc3339(now()), data: notice });
      let last: ErasureDelivery = { delivered: false, id, attempts: 0, reason: "network" };
      for (let attempt = 1; attempt <= retries + 1; attempt++) {
        if (attempt > 1) await sleep(backoff[Math.min(attempt - 2, backoff.length - 1)] ?? 0);
        const timestamp = rfc3339(now());
        const headers = {
          "content-type": "application/json",
          "webhook-id": id,
          "webhook-timestamp": timestamp,
          "webhook-signature": await signWebhook(config.secret, id, timestamp, body),
        };
        const r = await config.client.send(config.url, { method: "POST", headers, body });
        if (r.sent) {
          const status = r.response.status;
          await r.response.body?.cancel().catch(() => {});
          if (status < 300) return { delivered: true, id, attempts: attempt, status };
          last = { delivered: false, id, attempts: attempt, reason: "http_status", status };
          if (status < 500) return last;
        } else {
          last = { delivered: false, id, attempts: attempt, reason: r.reason, ...(r.status ? { status: r.status } : {}) };
          if (r.reason !== "network" && r.reason !== "timeout") return last;
        }
      }
      return last;
    },
  };
}
