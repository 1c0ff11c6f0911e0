/** Shared setup for workflow tests: JWT roles, a channel webhook secret and a signal bridge config, all owner-only files. */
import { chmodSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { signWebhook } from "../../src/outbound/webhook-signature.ts";
import { nowS, signJwt } from "../auth/_jwt.ts";

export const HS = "a-workflow-hs256-secret-of-at-least-32-bytes";
export const WEBHOOK_SECRET = "whsec_" + Buffer.from("channel-shared-secret-for-tests").toString("base64");
export const BRIDGE_TEXT = JSON.stringify({ kind: "signal", account: "bridge-1", drain_interval_secs: 30 });
export const BRIDGE_SHA = createHash("sha256").update(BRIDGE_TEXT).digest("hex");

function ownerOnly(path: string, text: string): string {
  writeFileSync(path, text);
  chmodSync(path, 0o600);
  return path;
}

/** The environment of a workflow server in `dir`. */
export function workflowEnv(dir: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_EMBED_KIND: "none",
    CAIRN_JWT_SECRET_FILE: ownerOnly(join(dir, "hs"), HS),
    CAIRN_CHANNEL_WEBHOOK_SECRET_FILE: ownerOnly(join(dir, "channel.secret"), WEBHOOK_SECRET),
    CAIRN_CHANNEL_BRIDGE_CONFIG: ownerOnly(join(dir, "bridge.signal.json"), BRIDGE_TEXT),
    ...extra,
  };
}

/** Bearer headers of a JWT with these roles. */
export function as(roles: string[], sub = "alice@example.org"): Record<string, string> {
  return { authorization: `Bearer ${signJwt("HS256", { sub, exp: nowS() + 600, roles }, HS)}` };
}

let n = 0;
/** Standard-Webhooks headers for a body (fresh id unless given). */
export async function signed(body: string, o: { id?: string; ts?: number | string; secret?: string } = {}): Promise<Record<string, string>> {
  const id = o.id ?? `msg_${Date.now()}_${++n}`;
  const ts = o.ts ?? Math.floor(Date.now() / 1000);
  return {
    "content-type": "application/json", "webhook-id": id, "webhook-timestamp": String(ts),
    "webhook-signature": await signWebhook(o.secret ?? WEBHOOK_SECRET, id, ts, body),
  };
}

/** A hashed subject (the connector salts and hashes the customer identity). */
export const subject = (who: string) => createHash("sha256").update(`salt:${who}`).digest("hex");

/** A CrmCase envelope. */
export function crmCase(id: string, o: Partial<Record<string, unknown>> = {}): Record<string, unknown> {
  return {
    source: "zendesk", org_id: "acme", case_id: id, title: `Router keeps dropping (${id})`, status: "open", priority: "high",
    subject_ref: subject("jane.doe@example.com"), updated_rev: "1", updated_at: "2026-11-25T10:00:00Z", ...o,
  };
}
