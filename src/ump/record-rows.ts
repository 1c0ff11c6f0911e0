/**
 * Pure conversions between a UMP record and its stored form: sealing (the
 * content-addressed id plus the integrity block, signed when an operator key
 * is configured; SPEC §2.8), the row columns recall filters on, and
 * reassembly from the row plus the chunk text (the text is stored once, in
 * the chunk).
 */
import type { UmpRowInput, UmpRow } from "../store/ump-records.ts";
import { contentHash, recordId, withContentHash, withoutIntegrity } from "./content-hash.ts";
import { didFromSeed } from "./did-key.ts";
import { parseIsoDuration } from "./iso-duration.ts";
import { signContentHash } from "./sign.ts";
import type { UmpRecord } from "./types.ts";
import { isConversationTurn } from "../conversation/ump-turn.ts";

/**
 * Gives the record its id (when it has none) and a fresh integrity block:
 * signed (`signRecord`'s bytes, with the signer from `didOf` so the key is not
 * derived again) when there is a seed, a content hash only otherwise.
 */
export function sealRecord(record: UmpRecord, seed: Uint8Array | undefined, didOf: (seed: Uint8Array) => string = didFromSeed): UmpRecord {
  const withId = record.id ? record : placeId(record, recordId(record));
  if (!seed) return withContentHash(withId) as UmpRecord;
  const content_hash = contentHash(withId);
  return { ...withoutIntegrity(withId), integrity: { content_hash, signature: signContentHash(content_hash, seed), signer: didOf(seed) } } as UmpRecord;
}

// Keep the conventional member order (ump, id, kind, …) for readable output; the hash does not depend on it.
function placeId(record: UmpRecord, id: string): UmpRecord {
  const { ump, id: _none, ...rest } = record;
  return { ump, id, ...rest } as UmpRecord;
}

/** The retention deadline: `time.created` plus `consent.retention`, or undefined. */
export function retentionDeadline(record: UmpRecord): string | undefined {
  const ms = record.consent?.retention ? parseIsoDuration(record.consent.retention) : null;
  if (ms === null) return undefined;
  const created = Date.parse(record.time.created);
  return Number.isFinite(created) ? new Date(created + ms).toISOString() : undefined;
}

/** The row written for a sealed record on a chunk. */
export function rowOfRecord(record: UmpRecord, chunkId: number): UmpRowInput {
  const { text: _text, ...bodyRest } = record.body;
  // A conversation turn's chunk holds its window, not its text (issue 24): the row keeps the text, and
  // `recordOfRow` prefers it.
  const stored = { ...record, body: isConversationTurn(record) ? record.body : bodyRest };
  const row: UmpRowInput = {
    id: record.id, chunkId, kind: record.kind, owner: record.scope.owner, visibility: record.scope.visibility,
    status: record.lifecycle?.status ?? "active", validFrom: record.time.valid_from, exportable: record.consent?.exportable !== false,
    record: JSON.stringify(stored),
  };
  if (record.scope.project !== undefined) row.project = record.scope.project;
  if (record.scope.agent !== undefined) row.agent = record.scope.agent;
  if (record.time.valid_to !== null) row.validTo = record.time.valid_to;
  const deadline = retentionDeadline(record);
  if (deadline !== undefined) row.expiresAt = deadline;
  return row;
}

/** The full record of a row, with `body.text` from its chunk. */
export function recordOfRow(row: Pick<UmpRow, "record">, text: string): UmpRecord {
  const stored = JSON.parse(row.record) as UmpRecord;
  const { body, ...rest } = stored as Omit<UmpRecord, "body"> & { body: Record<string, unknown> };
  const ordered: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest)) {
    if (k === "body") continue;
    ordered[k] = v;
    if (k === "title" || (k === "kind" && rest.title === undefined)) ordered.body = { text, ...body };
  }
  if (!("body" in ordered)) ordered.body = { text, ...body };
  return ordered as UmpRecord;
}
