/**
 * Verifies the audit chain end to end and names the first broken link
 * (`GET /audit/verify`). A row is broken when its stored `prev_hash` is not
 * the previous row's hash (a row was removed, inserted or reordered) or its
 * stored hash does not match its recomputed hash (a row was edited).
 */
import type { Exec } from "../store/db.ts";
import { listAuditRaw } from "../store/audit.ts";
import { chainHash, GENESIS_HASH } from "./chain-hash.ts";

/** Verification result (this project's shape; SPEC §4.8 does not show it). */
export interface AuditVerification {
  ok: boolean;
  rows: number;
  head?: string;
  first_broken?: { id: number; reason: "hash_mismatch" | "link_mismatch" | "unreadable" };
}

/** Walks the whole chain in id order. */
export async function verifyAuditChain(ex: Exec): Promise<AuditVerification> {
  let prev = GENESIS_HASH;
  let after = 0;
  let rows = 0;
  for (;;) {
    const page = await listAuditRaw(ex, after, 1000);
    if (!page.length) break;
    for (const r of page) {
      rows++;
      if (r.prev_hash !== prev) return { ok: false, rows, first_broken: { id: r.id, reason: "link_mismatch" } };
      let detail: Record<string, unknown>;
      try {
        detail = JSON.parse(r.detail);
      } catch {
        return { ok: false, rows, first_broken: { id: r.id, reason: "unreadable" } };
      }
      const expect = chainHash(prev, { id: r.id, ts: r.ts, action: r.action, actor: r.actor, target: r.target, detail });
      if (expect !== r.hash) return { ok: false, rows, first_broken: { id: r.id, reason: "hash_mismatch" } };
      prev = r.hash;
      after = r.id;
    }
  }
  return rows ? { ok: true, rows, head: prev } : { ok: true, rows };
}
