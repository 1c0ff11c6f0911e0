/**
 * `POST /purge` (SPEC §4.4: "deletes by id or owner, with a tombstone and an
 * audit row"). Body `{ids: number[]}` or `{owner: string}` (exactly one).
 * One transaction: every chunk purged with its tombstone, the proposals
 * that promoted them deleted, one `purge` audit row. Unknown ids are
 * reported, not an error; an owner with nothing stored purges nothing.
 */
import { writeAcross } from "../store/domain-dbs.ts";
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import { requireObject } from "../ingest/fields.ts";
import { chunkIdsByOwner, existingChunkIds } from "../store/erasure.ts";
import { eraseInTx } from "./erase-in-tx.ts";
import { idsDigest } from "./ids-digest.ts";

/** The purge reply (this project's shape). */
export interface PurgeResult {
  purged: number;
  ids: number[];
  proposals_deleted: number;
  missing?: number[];
  audit_id?: number;
}

/** At most this many ids per request (the 1 MiB body holds far fewer digits anyway). */
export const MAX_PURGE_IDS = 100_000;

function parse(raw: unknown): { ids?: number[]; owner?: string } {
  const b = requireObject(raw);
  const hasIds = b.ids !== undefined && b.ids !== null;
  const hasOwner = b.owner !== undefined && b.owner !== null;
  if (hasIds === hasOwner) throw new MemoryError("invalid_request", "give exactly one of ids or owner", { field: "ids" });
  if (hasOwner) {
    if (typeof b.owner !== "string" || b.owner.trim() === "" || b.owner.length > 256) {
      throw new MemoryError("invalid_request", "owner must be a non-empty string of at most 256 characters", { field: "owner" });
    }
    return { owner: b.owner.trim() };
  }
  if (!Array.isArray(b.ids) || b.ids.length === 0 || b.ids.length > MAX_PURGE_IDS || !b.ids.every((x) => Number.isSafeInteger(x) && x > 0)) {
    throw new MemoryError("invalid_request", `ids must be 1 to ${MAX_PURGE_IDS} positive integers`, { field: "ids" });
  }
  return { ids: [...new Set(b.ids as number[])].sort((a, b) => a - b) };
}

/** Purges by id list or owner. */
export async function purge(d: { ctx: WriteContext; audit: AuditService }, raw: unknown): Promise<PurgeResult> {
  const req = parse(raw);
  // Multi-database mode: one write over every database, so no domain keeps the erased rows (docs/scale-out.md).
  const out = await writeAcross(d.ctx.db, async (tx) => {
    const ids = req.owner !== undefined ? await chunkIdsByOwner(tx, req.owner) : await existingChunkIds(tx, req.ids!);
    if (!ids.length) return { erased: undefined, ids };
    const now = d.ctx.clock().toISOString();
    const erased = await eraseInTx(tx, { chunkIds: ids, reason: "purge", now });
    const row = await d.audit.append(tx, {
      action: "purge", target: req.owner !== undefined ? "owner" : "ids",
      detail: { chunks: erased.chunkIds.length, ids_sha256: idsDigest(erased.chunkIds), proposals: erased.proposalIds.length, links: erased.links },
    });
    return { erased, ids, auditId: row.id };
  });
  const found = new Set(out.ids);
  const missing = req.ids ? req.ids.filter((id) => !found.has(id)) : [];
  if (out.erased) for (const id of out.erased.chunkIds) for (const h of d.ctx.indexHooks) h.removed(id);
  const r: PurgeResult = { purged: out.ids.length, ids: out.ids, proposals_deleted: out.erased?.proposalIds.length ?? 0 };
  if (missing.length) r.missing = missing;
  if ("auditId" in out && out.auditId !== undefined) r.audit_id = out.auditId;
  return r;
}
