/**
 * Appends one hash-chained audit row inside the caller's write transaction,
 * so the row commits with the change it records (STYLE rule 10). Writes are
 * serialised by `Db.write`, so reading the head inside the transaction is
 * race-free.
 */
import type { Exec } from "../store/db.ts";
import { auditHead, insertAuditRows, type AuditRow } from "../store/audit.ts";
import { chainHash, GENESIS_HASH } from "./chain-hash.ts";

/** What a governed action records. Keep `detail` free of raw personal data. */
export interface AuditEvent {
  action: string;
  actor?: string;
  target?: string;
  detail?: Record<string, unknown>;
}

/**
 * The chain head each open transaction last appended: a batch of N writes reads the head once, not N
 * times. Only `appendAudit` writes audit rows and transactions are serialised, so inside one transaction
 * the head moves only here; a rolled-back transaction object is simply never seen again.
 */
const headOf = new WeakMap<Exec, { id: number; hash: string }>();

/** Appends the event; returns the new row's id and hash. */
export async function appendAudit(tx: Exec, ev: AuditEvent, now: Date): Promise<{ id: number; hash: string }> {
  return (await appendAuditMany(tx, [ev], now))[0];
}

/**
 * Appends several events in order, each chained to the one before, with one INSERT per 200 rows (batch
 * ingest; `appendAudit` is the one-event case). All share the timestamp `now`.
 */
export async function appendAuditMany(tx: Exec, evs: readonly AuditEvent[], now: Date): Promise<{ id: number; hash: string }[]> {
  if (evs.length === 0) return [];
  let head = headOf.get(tx) ?? await auditHead(tx);
  const ts = now.toISOString();
  const rows: AuditRow[] = evs.map((ev) => {
    const id = (head?.id ?? 0) + 1;
    const prevHash = head?.hash ?? GENESIS_HASH;
    const detail = ev.detail ?? {};
    const hash = chainHash(prevHash, { id, ts, action: ev.action, actor: ev.actor, target: ev.target, detail });
    head = { id, hash };
    return { id, ts, action: ev.action, actor: ev.actor, target: ev.target, detail, prevHash, hash };
  });
  await insertAuditRows(tx, rows);
  headOf.set(tx, head!);
  return rows.map((r) => ({ id: r.id, hash: r.hash }));
}
