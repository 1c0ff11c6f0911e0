/**
 * Import of UMP records (SPEC §4.2 `POST /ingest?format=ump` and
 * `format=ump-md`, `cairn ump import`): each record is processed on its own
 * with its own status, so one bad record never aborts the rest. Records keep
 * their ids, times, lineage and lifecycle (the file binding round trip is
 * lossless); a supplied integrity block must verify, and the stored record
 * is sealed again by this store. The operator's imports keep foreign owners
 * (custody moves with the file); a capability token may only import records
 * it owns. Through the HTTP door (`/ingest?format=ump`, a posture-carrying
 * door) each record becomes a proposal under `review` posture; the CLI and
 * the vault binding are operator writes and always direct.
 */
import { isMemoryError } from "../core/errors.ts";
import { requireCleanText } from "../core/text-rule.ts";
import { requireRegisteredDomain } from "../ingest/ingest-structured.ts";
import { isOperator, type UmpActor } from "./actor.ts";
import { readCarry } from "./carry.ts";
import { prepareRecord, proposeIfReview, storeOrReject, type RememberResult } from "./remember.ts";
import type { UmpDeps } from "./ump-deps.ts";

/** One record's outcome in a batch. */
export type ImportItem = { index: number } & (RememberResult | { result: "rejected"; id?: string; error: { code: string; message: string; details?: Record<string, unknown> } });

/** The batch reply. */
export interface ImportResult {
  ump: string;
  results: ImportItem[];
  created: number;
  merged: number;
  rejected: number;
}

/** Imports records one by one. */
export async function importRecords(
  d: UmpDeps, actor: UmpActor, records: readonly unknown[], o: { source?: "structured" | "vault"; door?: string } = {},
): Promise<ImportResult> {
  const out: ImportResult = { ump: "1.0", results: [], created: 0, merged: 0, rejected: 0 };
  for (const [index, input] of records.entries()) {
    let item: ImportItem;
    try {
      // The text-field rule, naming the record's place in the batch or file (`records[3].title`).
      requireCleanText(input, { at: `records[${index}]` });
      const record = await prepareRecord(d, actor, input, { enforceOwner: !isOperator(actor), actorKind: "import", method: "import" });
      // Issue 22 item 2: chunk state a Cairn export carried (`x-cairn`: labels, metadata, graph rows, file links).
      const carry = readCarry(record);
      // SPEC §4.2 (lossless round trip): the operator's import brings the record's domain with it; anyone else's
      // names a registered one.
      if (carry && isOperator(actor) && d.ensureDomain) await d.ensureDomain(carry.chunk.domain);
      else if (carry) await requireRegisteredDomain(d.write, carry.chunk.domain);
      const review = o.door ? await proposeIfReview(d, record, o.door) : undefined;
      item = review
        ? { index, id: record.id, result: "created", review }
        : { index, ...(await storeOrReject(d, record, o.source ?? "structured", "ump_import", actor, carry)) };
    } catch (e) {
      if (!isMemoryError(e)) throw e;
      const error: { code: string; message: string; details?: Record<string, unknown> } = { code: e.code, message: e.message };
      if (e.details) error.details = e.details;
      const id = (input as { id?: unknown } | null)?.id;
      item = { index, result: "rejected", ...(typeof id === "string" ? { id } : {}), error };
    }
    out.results.push(item);
    out[item.result]++;
  }
  return out;
}
