/**
 * The system-alert webhook sender (SPEC §6 "Outbound webhooks"; §5 item 8):
 * a Standard-Webhooks-signed POST with an RFC 3339 `webhook-timestamp`, retried
 * up to three times (four attempts in all) with the same `webhook-id` on a 5xx
 * answer, a network error or a timeout. Each attempt is re-signed with its own
 * timestamp; the body is identical across attempts. The payload shape is this
 * project's choice (the spec leaves it open): `{type, timestamp, data}`.
 */

import type { OutboundClient, SendFailure } from "./outbound-client.ts";
import { rfc3339, signWebhook, type WebhookSecret } from "./webhook-signature.ts";

/** Configuration of `createAlertSender`. */
export interface AlertWebhookConfig {
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

/** One alert; sent as the `data` member of the payload. */
export interface SystemAlert {
  kind: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Outcome of one alert delivery. */
export type AlertDelivery =
  | { delivered: true; id: string; attempts: number; status: number }
  | { delivered: false; id: string; attempts: number; reason: SendFailure | "http_status"; status?: number };

/** A sender of signed system alerts. */
export interface AlertSender {
  /** Delivers one alert, retrying transient failures with the same delivery id. */
  send(alert: SystemAlert): Promise<AlertDelivery>;
}

/** Builds the alert sender. */
export function createAlertSender(config: AlertWebhookConfig): AlertSender {
  const retries = config.retries ?? 3;
  const backoff = config.backoffMs ?? [1_000, 5_000, 25_000];
  const sleep = config.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = config.now ?? (() => new Date());
  const newId = config.newId ?? (() => "msg_" + crypto.randomUUID().replaceAll("-", ""));

  return {
    async send(alert) {
      const id = newId();
      const body = JSON.stringify({ type: "system.alert", timestamp: rfc3339(now()), data: alert });
      let last: AlertDelivery = { delivered: false, id, attempts: 0, reason: "network" };
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
