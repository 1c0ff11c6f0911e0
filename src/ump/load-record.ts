/**
 * Reading one stored record: row plus chunk text, verified before it is
 * emitted (SPEC §4.9 "Integrity is verified before return"), and the view a
 * caller is served: the read seam on the text fields (SPEC §1 Trust rules)
 * and `consent.redact` across a visibility boundary. A view that differs from
 * the stored record is sealed again (signed by the operator when a key is
 * configured), so what is emitted always verifies.
 */
import { MemoryError } from "../core/errors.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { getChunk } from "../store/chunks.ts";
import type { Exec } from "../store/db.ts";
import { getUmpRow, type UmpRow } from "../store/ump-records.ts";
import { crossesBoundary, type UmpActor } from "./actor.ts";
import { recordOfRow, sealRecord } from "./record-rows.ts";
import { applyRedact } from "./redact.ts";
import { verifyRecordAsync } from "./sign.ts";
import type { UmpRecord } from "./types.ts";

/** A stored record with its row. */
export interface LoadedRecord {
  row: UmpRow;
  record: UmpRecord;
  domain: string;
  contentHash: string;
}

const ID = /^urn:ump:[a-z2-7]{1,128}$/;

/** Validates a record id argument; 400 `invalid_record` otherwise. */
export function parseRecordId(raw: unknown): string {
  if (typeof raw !== "string" || !ID.test(raw)) throw new MemoryError("invalid_record", "id must be urn:ump:<lowercase base32>", { field: "id" });
  return raw;
}

/** Loads a record; undefined when unknown (or its chunk is gone). */
export async function findRecord(ex: Exec, id: string): Promise<LoadedRecord | undefined> {
  const row = await getUmpRow(ex, id);
  if (!row) return undefined;
  const chunk = await getChunk(ex, row.chunkId);
  if (!chunk) return undefined;
  return { row, record: recordOfRow(row, chunk.content), domain: chunk.domain, contentHash: chunk.contentHash };
}

/** Loads a record or throws 404 `not_found`. */
export async function loadRecord(ex: Exec, id: string): Promise<LoadedRecord> {
  const found = await findRecord(ex, id);
  if (!found) throw new MemoryError("not_found", "record not found", { id });
  return found;
}

/** Verifies the stored integrity (native Ed25519 where available); a stored record that fails is never emitted. */
export async function assertIntact(record: UmpRecord): Promise<void> {
  const v = await verifyRecordAsync(record);
  if (!v.ok) throw new MemoryError("signature_invalid", "The stored record failed integrity verification", { reason: v.reason }, 500);
}

/** Options of `viewRecord`. */
export interface ViewOptions {
  /** Apply the read seam to `title` and `body.text` (recall and get; not export). */
  seam: boolean;
  /** Strip `consent.redact` paths whatever the caller (export). */
  redact?: boolean;
}

/** The record as served to `actor`; sealed again when anything changed. */
export function viewRecord(record: UmpRecord, actor: UmpActor, seed: Uint8Array | undefined, o: ViewOptions, didOf?: (seed: Uint8Array) => string): UmpRecord {
  let out: UmpRecord = record;
  let changed = false;
  const paths = record.consent?.redact ?? [];
  if (paths.length && (o.redact || crossesBoundary(actor, record.scope.owner))) {
    out = applyRedact(out, paths);
    changed = out.integrity === undefined;
  }
  if (o.seam) {
    const seam = (s: string) => sanitizeForRead(s, { piiRead: actor.piiRead });
    const text = typeof out.body?.text === "string" ? seam(out.body.text) : undefined;
    const title = typeof out.title === "string" ? seam(out.title) : undefined;
    if ((text !== undefined && text !== out.body.text) || (title !== undefined && title !== out.title)) {
      out = structuredClone(out);
      if (text !== undefined) out.body.text = text;
      if (title !== undefined) out.title = title;
      changed = true;
    }
  }
  return changed ? sealRecord(out, seed, didOf) : out;
}
