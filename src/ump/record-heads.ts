/**
 * Lookups the vault binding needs: the current version of a record (its
 * lineage followed through `superseded_by`), the live records of a project,
 * and a record as stored (verified, no read seam) for writing to a file.
 */
import { MemoryError } from "../core/errors.ts";
import { requireRead, type UmpActor } from "./actor.ts";
import { assertIntact, findRecord, loadRecord, viewRecord } from "./load-record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { isLive } from "./ump-index.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** The live head of `id`'s lineage, or undefined when it was forgotten or erased. */
export async function headOf(d: UmpDeps, id: string): Promise<string | undefined> {
  let cur = await findRecord(routedReader(d.db), id);
  for (let hops = 0; cur && hops < 1000; hops++) {
    if (cur.row.status === "tombstoned") return undefined;
    const next = cur.record.superseded_by?.[cur.record.superseded_by.length - 1];
    if (!next) return cur.record.id;
    cur = await findRecord(routedReader(d.db), next);
  }
  return undefined;
}

/** Ids of the records of a project that are live now, oldest first. */
export function liveIdsOfProject(d: UmpDeps, project: string): string[] {
  const now = d.clock().getTime();
  const out: { id: string; seq: number }[] = [];
  for (const m of d.index.all()) if (m.scope.project === project && isLive(m, now, now)) out.push(m);
  return out.sort((a, b) => a.seq - b.seq).map((m) => m.id);
}

/** A record as stored, for a file: verified, `consent.redact` stripped across a boundary, no read seam. */
export async function storedRecord(d: UmpDeps, actor: UmpActor, id: string): Promise<UmpRecord> {
  const { row, record } = await loadRecord(routedReader(d.db), id);
  if (row.status === "tombstoned") throw new MemoryError("not_found", "record not found", { id });
  requireRead(actor, record.scope);
  await assertIntact(record);
  return viewRecord(record, actor, await d.keys(), { seam: false }, d.didOf);
}
