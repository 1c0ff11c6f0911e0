/**
 * `POST /purge` (SPEC §4.4: "deletes by id or owner, with a tombstone and an
 * audit row"). Body `{ids: number[]}` or `{owner: string}` (exactly one).
 * One transaction: every chunk purged with its tombstone, the proposals
 * that promoted them deleted with everything hanging off both (erase-in-tx.ts),
 * one `purge` audit row counting the rows by table. Unknown ids are
 * reported, not an error; an owner with nothing stored purges nothing.
 */
import { writeAcross } from "../store/domain-dbs.ts";
import type { AuditService } from "../audit/audit-service.ts";
import type { WriteContext } from "../ingest/context.ts";
import { parseWith } from "../core/schema.ts";
import { MAX_PURGE_IDS, PurgeBody, type PurgeInput } from "./erasure-schema.ts";
import { chunkIdsByOwner, existingChunkIds } from "../store/erasure.ts";
import { eraseInTx } from "./erase-in-tx.ts";
import { idsDigest } from "./ids-digest.ts";

/** The purge reply (this project's shape). */
export interface PurgeResult {
  purged: number;
  ids: number[];
  proposals_deleted: number;
  /** Rows deleted, by table (issue 35: what hung off the purged chunks and proposals went with them). */
  tables: Record<string, number>;
  missing?: number[];
  audit_id?: number;
}

export { MAX_PURGE_IDS };

function parse(raw: PurgeInput): { ids?: number[]; owner?: string } {
  const b = parseWith(PurgeBody, raw);
  return b.owner !== undefined ? { owner: b.owner } : { ids: [...new Set(b.ids!)].sort((a, b) => a - b) };
}

/** Purges by id list or owner. */
export async function purge(d: { ctx: WriteContext; audit: AuditService }, raw: PurgeInput): Promise<PurgeResult> {
  const req = parse(raw);
  // Multi-database mode: one write over every database, so no domain keeps the erased rows (docs/scale-out.md).
  const out = await writeAcross(d.ctx.db, async (tx) => {
    const ids = req.owner !== undefined ? await chunkIdsByOwner(tx, req.owner) : await existingChunkIds(tx, req.ids!);
    if (!ids.length) return { erased: undefined, ids };
    const now = d.ctx.clock().toISOString();
    const erased = await eraseInTx(tx, { chunkIds: ids, reason: "purge", now });
    const row = await d.audit.append(tx, {
      action: "purge", target: req.owner !== undefined ? "owner" : "ids",
      detail: { chunks: erased.chunkIds.length, ids_sha256: idsDigest(erased.chunkIds), proposals: erased.proposalIds.length, links: erased.links, tables: erased.tables },
    });
    return { erased, ids, auditId: row.id };
  });
  const found = new Set(out.ids);
  const missing = req.ids ? req.ids.filter((id) => !found.has(id)) : [];
  if (out.erased) for (const id of out.erased.chunkIds) for (const h of d.ctx.indexHooks) h.removed(id);
  const r: PurgeResult = { purged: out.ids.length, ids: out.ids, proposals_deleted: out.erased?.proposalIds.length ?? 0, tables: out.erased?.tables ?? {} };
  if (missing.length) r.missing = missing;
  if ("auditId" in out && out.auditId !== undefined) r.audit_id = out.auditId;
  return r;
}
