/**
 * `POST /ump/feedback` (SPEC §4.9; UMP notes): `{id, outcome, session?}`
 * where outcome is followed, overridden, ignored or contradicted. The report
 * is stored and counted on the record (the counts appear on `get` and move
 * the `salience` recall signal); it never changes the record itself, so a
 * read grant is enough to give it.
 */
import { MemoryError } from "../core/errors.ts";
import { parseWith } from "../core/schema.ts";
import { UmpFeedbackBody, type UmpFeedbackInput } from "./ump-schema.ts";
import { addUmpFeedback } from "../store/ump-records.ts";
import { requireRead, type UmpActor } from "./actor.ts";
import { loadRecord } from "./load-record.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** Records one feedback report. */
export async function giveFeedback(d: UmpDeps, actor: UmpActor, raw: UmpFeedbackInput): Promise<{ ok: true }> {
  const { id, outcome, session } = parseWith(UmpFeedbackBody, raw);
  const { row, record } = await loadRecord(routedReader(d.db), id);
  if (row.status === "tombstoned") throw new MemoryError("not_found", "record not found", { id });
  requireRead(actor, record.scope);
  await d.db.write((tx) =>
    addUmpFeedback(tx, { recordId: id, outcome, session, actor: actor.subject, at: d.clock().toISOString() })
  );
  d.events.emit({ kind: "feedback", id, scope: record.scope });
  return { ok: true };
}
