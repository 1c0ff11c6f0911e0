/**
 * Export of UMP records (SPEC §4.2 `GET /export?format=ump|ump-md`,
 * `cairn ump export`): every record the caller may read, in storage order,
 * superseded versions included (history is part of the memory), forgotten
 * ones and `consent.exportable: false` ones left out. Chunks written through
 * other doors are materialised first (one kernel), quarantined ones are not
 * exported. `consent.redact` paths are stripped on export (UMP notes), and a
 * record changed that way is sealed again so the file still verifies.
 * SPEC §1: every emitted text field goes through the read seam, so the export
 * shows the caller what `/ump/memory` and `/recall` show them (PII redacted
 * without `pii:read`, markdown reference definitions, invisible and control
 * characters stripped) — the record's text, title and the string members of
 * its carried chunk metadata — re-sealed (same id) so it still verifies. A raw
 * backup (`raw`) is the operator's explicit choice and writes an audit row.
 * One record that cannot be
 * exported (it no longer verifies: e.g. a legacy row whose text held a NUL
 * and reads back cut) never fails the export whole: it is left out and named
 * in `skipped` (x-cairn-choice), and `cairn check-consistency` names it too.
 */
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import type { Chunk } from "../core/types.ts";
import { getChunk, listChunksAfter } from "../store/chunks.ts";
import { listUmpRowsAfter, type UmpRow } from "../store/ump-records.ts";
import { canUse, isOperator, requireGrant, type UmpActor } from "./actor.ts";
import { assertIntact, viewRecord } from "./load-record.ts";
import { materialize } from "./materialize.ts";
import { canonicalize } from "./canonical-json.ts";
import { CARRY, carries, carryOfChunk, withCarry } from "./carry.ts";
import { withoutIntegrity } from "./content-hash.ts";
import { recordOfRow, sealRecord } from "./record-rows.ts";
import { UMP_VERSION } from "./record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** A record the export left out, and why (`hash_mismatch`, `signature_invalid`, …). */
export interface SkippedRecord {
  id: string;
  reason: string;
}

/** The JSON envelope of `GET /export?format=ump`; `skipped` only when a record could not be exported. */
export interface ExportEnvelope {
  ump: string;
  exported_at: string;
  records: UmpRecord[];
  skipped?: SkippedRecord[];
}

/** Export options: `raw` skips the read seam (operator only, audited); `format` names the file for the audit row. */
export interface ExportOptions {
  raw?: boolean;
  format?: string;
}

/** Collects the exportable records for `actor`. */
export async function exportRecords(d: UmpDeps, actor: UmpActor, o: ExportOptions = {}): Promise<ExportEnvelope> {
  requireGrant(actor, "export");
  if (o.raw && !isOperator(actor)) {
    throw new MemoryError("forbidden", "A raw export (no read seam) is the operator's choice only", { reason: "raw_export_operator_only" }, 403);
  }
  await materializeAllChunks(d);
  const seed = await d.keys();
  const records: UmpRecord[] = [];
  const skipped: SkippedRecord[] = [];
  let after = 0;
  for (;;) {
    const rows = await listUmpRowsAfter(d.db.client, after, 500);
    for (const row of rows) {
      if (row.status === "tombstoned" || !row.exportable) continue;
      const chunk = await getChunk(routedReader(d.db), row.chunkId);
      if (!chunk || chunk.flagged) continue;
      try {
        const record = await exportable(d, actor, row, chunk, seed, !o.raw);
        if (record) records.push(record);
      } catch (e) {
        skipped.push({ id: row.id, reason: reasonOf(e) });
      }
    }
    if (rows.length < 500) break;
    after = rows[rows.length - 1].seq;
  }
  // A raw backup carries text the read seam would have withheld: the choice is recorded (counts only).
  if (o.raw) await d.db.write((tx) => d.audit.append(tx, { action: "export_raw", actor: actor.subject, detail: { format: o.format ?? "ump", records: records.length } }));
  return { ump: UMP_VERSION, exported_at: d.clock().toISOString(), records, ...(skipped.length ? { skipped } : {}) };
}

/** One row as exported to `actor`, or undefined when its scope is not theirs; throws when it does not verify. */
async function exportable(d: UmpDeps, actor: UmpActor, row: UmpRow, chunk: Chunk, seed: Uint8Array | undefined, seam: boolean): Promise<UmpRecord | undefined> {
  let record = recordOfRow(row, chunk.content);
  if (!canUse(actor, "export", record.scope)) return undefined;
  await assertIntact(record);
  // Issue 22 item 2: a chunk written through another door carries its labels, metadata, graph rows and
  // file links (`x-cairn`, the note's edges as `relations`); the record is sealed again when that changed it.
  if (carries(record)) {
    const carried = withCarry(record, await carryOfChunk(routedReader(d.db), chunk));
    if (canonicalize(withoutIntegrity(carried)) !== canonicalize(withoutIntegrity(record))) record = sealRecord(carried, seed, d.didOf);
  }
  if (seam) record = seamCarry(record, actor, seed, d.didOf);
  return viewRecord(record, actor, seed, { seam, redact: true }, d.didOf);
}

/** The read seam over the string members of a carried chunk's metadata (front matter, heading path, source link). */
function seamCarry(record: UmpRecord, actor: UmpActor, seed: Uint8Array | undefined, didOf: (seed: Uint8Array) => string): UmpRecord {
  const carry = (record as unknown as Record<string, unknown>)[CARRY] as { chunk?: { meta?: Record<string, unknown> } } | undefined;
  const meta = carry?.chunk?.meta;
  if (!meta) return record;
  let changed = false;
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const s = sanitizeForRead(v, { piiRead: actor.piiRead });
      if (s !== v) changed = true;
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const next = walk(meta);
  if (!changed) return record;
  const out = structuredClone(record) as unknown as Record<string, unknown>;
  (out[CARRY] as { chunk: { meta: unknown } }).chunk.meta = next;
  return sealRecord(out as unknown as UmpRecord, seed, didOf);
}

function reasonOf(e: unknown): string {
  if (isMemoryError(e)) return typeof e.details?.reason === "string" ? e.details.reason : e.code;
  return "unreadable";
}

/** Gives every stored, unflagged chunk its record (one kernel). */
export async function materializeAllChunks(d: UmpDeps): Promise<void> {
  let after = 0;
  for (;;) {
    const chunks = await listChunksAfter(d.db.client, after, 500);
    const missing = chunks.filter((c) => !c.flagged && d.index.onChunk(c.id).length === 0).map((c) => c.id);
    if (missing.length) await materialize(d, missing);
    if (chunks.length < 500) return;
    after = chunks[chunks.length - 1].id;
  }
}
