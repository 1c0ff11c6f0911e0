/**
 * `GET /ump/memory/{id}` (SPEC §4.9): the record, verified before it is
 * returned, as the caller may see it (read seam, redaction across a
 * visibility boundary). Superseded versions stay readable by id (UMP notes:
 * the old record keeps `time.valid_to` and `superseded_by`); a forgotten
 * record is not found. `feedback` counts and `untrusted: true` sit beside
 * the record (additive members).
 */
import { MemoryError } from "../core/errors.ts";
import { requireRead, type UmpActor } from "./actor.ts";
import { assertIntact, findRecord, parseRecordId, viewRecord } from "./load-record.ts";
import { pendingReview } from "./promote-record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** The reply of get. */
export interface GetResult {
  record: UmpRecord;
  untrusted: true;
  feedback: Record<string, number>;
}

/** Reads one record. */
export async function getRecord(d: UmpDeps, actor: UmpActor, rawId: unknown): Promise<GetResult> {
  const id = parseRecordId(rawId);
  const found = await findRecord(routedReader(d.db), id);
  if (!found) {
    await pendingReview(d, id);
    throw new MemoryError("not_found", "record not found", { id });
  }
  const { row, record } = found;
  if (row.status === "tombstoned") throw new MemoryError("not_found", "record not found", { id });
  requireRead(actor, record.scope);
  await assertIntact(record);
  return { record: viewRecord(record, actor, await d.keys(), { seam: true }, d.didOf), untrusted: true, feedback: { ...row.feedback } };
}
