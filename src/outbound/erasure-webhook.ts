/**
 * The erasure webhook (SPEC §1 item 10, §6): after a successful erasure the
 * service POSTs a Standard-Webhooks-signed notice to the configured
 * destination through the guarded outbound client. The payload shape and the
 * retry policy are this project's choice (the spec leaves both open): body
 * `{type: "erasure.completed", timestamp, data}` with an RFC 3339 timestamp,
 * retried like the alert webhook (up to three retries, same delivery id) on a
 * 5xx, a network error or a timeout. `data` must hold no raw personal data.
 */
import { createSignedSender, type Delivery, type SignedSenderConfig } from "./signed-sender.ts";

/** What one erasure reports (hashed subject and counts, never the erased content). */
export type ErasureNotice = Record<string, unknown>;

/** Outcome of one delivery. */
export type ErasureDelivery = Delivery;

/** Configuration of `createErasureSender`. */
export type ErasureWebhookConfig = SignedSenderConfig;

/** Sends erasure notices. */
export interface ErasureSender {
  send(notice: ErasureNotice): Promise<ErasureDelivery>;
}

/** Builds the sender (payload type `erasure.completed`). */
export function createErasureSender(config: ErasureWebhookConfig): ErasureSender {
  const sender = createSignedSender(config, "erasure.completed");
  return { send: (notice) => sender.send(notice) };
}
