/**
 * `POST /workflow/plugins/mount` (SPEC §4.11, §8 "Mount registration"): a
 * channel plugin (the messaging gateway) registers its mount with evidence,
 * the SHA-256 of the shared bridge config bytes it loaded. The server
 * compares it with the digest of the same file it read at boot; a mismatch
 * is refused (409 `mount_evidence_mismatch`), so both ends run one config.
 * A signed mount's `webhook-id` is claimed like the channel webhooks' (a
 * replay is 409 `webhook_replayed`, SPEC §5 item 8).
 */
import { MemoryError } from "../core/errors.ts";
import { insertPluginMount } from "../store/workflow-channels.ts";
import { parseWith } from "../core/schema.ts";
import type { WorkflowDeps } from "./deps.ts";
import { MountBody, type MountInput } from "./workflow-schema.ts";
import { emitEvent } from "./emit-event.ts";
import { refuseReplay, requireKind } from "./channel-service.ts";


/** Constant-time comparison of two equal-length hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Body `{plugin, kind, evidence: {bridge_config_sha256}}` → the recorded mount; `webhookId` when it came signed. */
export async function mountPlugin(d: WorkflowDeps, body: MountInput, o: { actor?: string; webhookId?: string } = {}): Promise<{ mount_id: number; plugin: string; kind: string; mounted: true }> {
  const { plugin, kind, evidence: { bridge_config_sha256: digest } } = parseWith(MountBody, body);
  requireKind(d, kind);
  if (!sameHex(digest, d.bridgeDigests.get(kind)!)) {
    throw new MemoryError("mount_evidence_mismatch", "the bridge config digest does not match the server's copy", { kind }, 409);
  }
  return await d.db.write(async (tx) => {
    const now = d.clock().toISOString();
    if (o.webhookId !== undefined) await refuseReplay(tx, o.webhookId, `mount:${kind}`, now);
    const id = await insertPluginMount(tx, { plugin, kind, configSha256: digest, mountedAt: now });
    await emitEvent(tx, d.audit, { runId: null, type: "plugin/mounted", now, actor: o.actor, payload: { mount_id: id, plugin, kind, bridge_config_sha256: digest } });
    return { mount_id: id, plugin, kind, mounted: true as const };
  });
}
