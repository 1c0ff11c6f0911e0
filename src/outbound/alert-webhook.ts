/**
 * The system-alert webhook sender (SPEC §6 "Outbound webhooks"; §5 item 8):
 * a Standard-Webhooks-signed POST with an RFC 3339 `webhook-timestamp`, retried
 * up to three times (four attempts in all) with the same `webhook-id` on a 5xx
 * answer, a network error or a timeout. Each attempt is re-signed with its own
 * timestamp; the body is identical across attempts. The payload shape is this
 * project's choice (the spec leaves it open): `{type, timestamp, data}`.
 */

import { createSignedSender, type Delivery, type SignedSenderConfig } from "./signed-sender.ts";

/** Configuration of `createAlertSender`. */
export type AlertWebhookConfig = SignedSenderConfig;

/** One alert; sent as the `data` member of the payload. */
export interface SystemAlert {
  kind: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Outcome of one alert delivery. */
export type AlertDelivery = Delivery;

/** A sender of signed system alerts. */
export interface AlertSender {
  /** Delivers one alert, retrying transient failures with the same delivery id. */
  send(alert: SystemAlert): Promise<AlertDelivery>;
}

/** Builds the alert sender (payload type `system.alert`). */
export function createAlertSender(config: AlertWebhookConfig): AlertSender {
  const sender = createSignedSender(config, "system.alert");
  return { send: (alert) => sender.send(alert) };
}
