/**
 * The opt-in outbound webhooks wired from configuration (SPEC §1 item 10,
 * §6): one guarded outbound client whose only destinations are the
 * configured alert and erasure URLs, the system-alert sender and the erasure
 * sender. Erasure listeners are an event port: the erasure workflow calls
 * `emitErasure` after its transaction commits; the erasure webhook is one
 * listener, and other features may add their own with `onErasure`.
 */
import { createAlertSender, type AlertDelivery, type AlertSender, type SystemAlert } from "./alert-webhook.ts";
import { createErasureSender, type ErasureDelivery, type ErasureNotice } from "./erasure-webhook.ts";
import { createOutboundClient, type OutboundClient } from "./outbound-client.ts";

/** Settings and secrets of the opt-in webhooks. */
export interface OptInWebhookSettings {
  alertUrl?: string;
  alertSecret?: string;
  erasureUrl?: string;
  erasureSecret?: string;
  allowLoopback: boolean;
  resolve: (host: string) => Promise<string[]>;
  /** Connects to the checked addresses only (SPEC §5 item 12); host names are refused without it. */
  pinnedFetch?: (addresses: readonly string[]) => typeof fetch;
  now: () => Date;
  /** Where delivery failures are reported (never thrown at the caller). */
  log: (level: "warn" | "error", message: string, fields: Record<string, unknown>) => void;
  /** Retry pacing; defaults to the senders' 1 s, 5 s, 25 s. */
  backoffMs?: readonly number[];
}

/** The webhook services on `Memory`. */
export interface OptInWebhooks {
  /** The guarded client (undefined when no destination is configured). */
  readonly client?: OutboundClient;
  /** Sends a system alert when the alert webhook is configured; resolves to undefined otherwise. */
  alert(alert: SystemAlert): Promise<AlertDelivery | undefined>;
  /** Registers an erasure listener. */
  onErasure(listener: (notice: ErasureNotice) => void | Promise<void>): void;
  /** Announces a committed erasure to every listener (the erasure webhook included when configured). */
  emitErasure(notice: ErasureNotice): Promise<void>;
  /** The last erasure webhook delivery (for operators and tests). */
  lastErasureDelivery(): ErasureDelivery | undefined;
}

/** Builds the webhook services. */
export function createOptInWebhooks(s: OptInWebhookSettings): OptInWebhooks {
  const origins = [s.alertUrl, s.erasureUrl].filter((u): u is string => u !== undefined).map((u) => new URL(u).origin);
  const client = origins.length ? createOutboundClient({
    allowedOrigins: origins, resolve: s.resolve, allowLoopback: s.allowLoopback, ...(s.pinnedFetch ? { pinnedFetch: s.pinnedFetch } : {}),
  }) : undefined;
  const pacing = s.backoffMs ? { backoffMs: s.backoffMs } : {};
  const alerts: AlertSender | undefined = client && s.alertUrl && s.alertSecret
    ? createAlertSender({ url: s.alertUrl, secret: s.alertSecret, client, now: s.now, ...pacing })
    : undefined;
  const erasure = client && s.erasureUrl && s.erasureSecret
    ? createErasureSender({ url: s.erasureUrl, secret: s.erasureSecret, client, now: s.now, ...pacing })
    : undefined;
  const listeners: ((n: ErasureNotice) => void | Promise<void>)[] = [];
  let last: ErasureDelivery | undefined;
  if (erasure) {
    listeners.push(async (n) => {
      last = await erasure.send(n);
      if (!last.delivered) s.log("error", "erasure webhook not delivered", { id: last.id, attempts: last.attempts, reason: last.reason });
    });
  }
  return {
    client,
    async alert(a) {
      if (!alerts) return undefined;
      const d = await alerts.send(a);
      if (!d.delivered) s.log("error", "alert webhook not delivered", { id: d.id, attempts: d.attempts, reason: d.reason });
      return d;
    },
    onErasure: (l) => void listeners.push(l),
    async emitErasure(notice) {
      for (const l of listeners) {
        try {
          await l(notice);
        } catch (e) {
          s.log("error", "erasure listener failed", { error: (e as Error).message });
        }
      }
    },
    lastErasureDelivery: () => last,
  };
}
