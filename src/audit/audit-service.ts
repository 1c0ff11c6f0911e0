/**
 * The audit service the composition root exposes: the in-transaction hook
 * that records every chunk write and delete, plus paging and verification.
 */
import type { TxEvent, TxHook } from "../ingest/ports.ts";
import type { Db, Exec } from "../store/db.ts";
import { listAuditRows, type AuditRow } from "../store/audit.ts";
import { appendAudit, appendAuditMany, type AuditEvent } from "./append-audit.ts";
import { verifyAuditChain, type AuditVerification } from "./verify-audit.ts";
import { createIdentifierRef, type IdentifierRef } from "./identifier-ref.ts";

/** Audit operations. */
export interface AuditService {
  /** Appends inside an open write transaction. */
  append(tx: Exec, ev: AuditEvent): Promise<{ id: number; hash: string }>;
  /** Appends in its own transaction (for refusals and reads that change nothing else). */
  record(ev: AuditEvent): Promise<{ id: number; hash: string }>;
  list(opts: { after?: number; limit?: number; action?: string }): Promise<{ rows: AuditRow[]; next_after?: number }>;
  verify(): Promise<AuditVerification>;
  /** The txHook wired into the write path. */
  hook: TxHook;
  /** The salted hash an audit detail records instead of an identifier (session id, path, free-text reason): src/audit/identifier-ref.ts. */
  ref: IdentifierRef;
}

/** Builds the audit service. */
export function createAuditService(db: Db, clock: () => Date, ref: IdentifierRef = createIdentifierRef(undefined)): AuditService {
  const append = (tx: Exec, ev: AuditEvent) => appendAudit(tx, ev, clock());
  return {
    append, ref,
    record: (ev) => db.write((tx) => append(tx, ev)),
    async list({ after = 0, limit = 100, action }) {
      const lim = Math.max(1, Math.min(1000, limit));
      const rows = await listAuditRows(db.client, after, lim, action);
      return rows.length === lim ? { rows, next_after: rows[rows.length - 1].id } : { rows };
    },
    verify: () => verifyAuditChain(db.client),
    hook: Object.assign(async (tx: Exec, ev: TxEvent) => {
      await append(tx, toAuditEvent(ev));
    }, {
      // Batch writes: the same rows, chained in order, one INSERT per 200 (src/ingest/write-chunk.ts).
      many: async (tx: Exec, evs: readonly TxEvent[]) => {
        await appendAuditMany(tx, evs.map(toAuditEvent), clock());
      },
    }),
  };
}

function toAuditEvent(ev: TxEvent): AuditEvent {
  return { action: ev.action, target: ev.chunkId !== undefined ? `chunk:${ev.chunkId}` : undefined, detail: ev.detail };
}
