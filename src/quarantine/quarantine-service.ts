/**
 * Quarantine review (SPEC §1 Trust rules, §4.4): list flagged entries
 * (served through the read seam, like every emitted text), release one back
 * into retrieval, or delete it. Release and delete are audited in the same
 * transaction as the change.
 */
import { MemoryError } from "../core/errors.ts";
import type { Chunk } from "../core/types.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import type { WriteContext } from "../ingest/context.ts";
import { deleteMemory } from "../lifecycle/delete-memory.ts";
import { getChunk } from "../store/chunks.ts";
import { listFlagged, setFlagged } from "../store/quarantine.ts";
import { dbsOf, routedReader, writeIn } from "../store/domain-dbs.ts";

/** One quarantined entry as served (this project's shape). */
export interface QuarantineItem {
  id: number;
  title?: string;
  content: string;
  domain: string;
  source: string;
  created_at: string;
  screen?: unknown;
  untrusted: true;
}

// SPEC §1: redaction is gated by the reader's `pii:read`, as on every other read path.
function view(c: Chunk, piiRead: boolean): QuarantineItem {
  const item: QuarantineItem = {
    id: c.id, content: sanitizeForRead(c.content, { piiRead }), domain: c.domain, source: c.source,
    created_at: c.createdAt, untrusted: true,
  };
  if (c.title !== undefined) item.title = sanitizeForRead(c.title, { piiRead });
  if (c.meta?.screen !== undefined) item.screen = c.meta.screen;
  return item;
}

/** Quarantine operations. */
export interface QuarantineService {
  list(opts: { after?: number; limit?: number; piiRead?: boolean }): Promise<{ items: QuarantineItem[]; next_after?: number }>;
  release(id: number): Promise<{ id: number; released: true }>;
  remove(id: number): Promise<{ id: number; deleted: true }>;
}

/** Builds the quarantine service over the write context. */
export function createQuarantineService(ctx: WriteContext): QuarantineService {
  const requireFlagged = async (id: number): Promise<Chunk> => {
    const c = await getChunk(routedReader(ctx.db), id);
    if (!c || !c.flagged) throw new MemoryError("not_found", `quarantined entry ${id} not found`);
    return c;
  };
  return {
    async list({ after = 0, limit = 100, piiRead = false }) {
      const lim = Math.max(1, Math.min(500, limit));
      // Multi-database mode: each database's first page after the cursor, merged in id order (docs/scale-out.md "One database per domain").
      const rows: Chunk[] = [];
      for (const d of dbsOf(ctx.db)) rows.push(...(await listFlagged(d.client, after, lim)));
      rows.sort((a, b) => a.id - b.id).splice(lim);
      const items = rows.map((r) => view(r, piiRead));
      return rows.length === lim ? { items, next_after: rows[rows.length - 1].id } : { items };
    },
    async release(id) {
      const flagged = await requireFlagged(id);
      // The flag is on the chunk's row in its domain's database; the audit row in the global one (`writeIn`).
      const chunk = await writeIn(ctx.db, flagged.domain, async (tx) => {
        if (!(await setFlagged(tx, id, false))) throw new MemoryError("not_found", `quarantined entry ${id} not found`);
        for (const h of ctx.txHooks) await h(tx, { action: "quarantine_release", chunkId: id });
        return (await getChunk(tx, id))!;
      });
      for (const h of ctx.indexHooks) h.changed?.(chunk);
      return { id, released: true };
    },
    async remove(id) {
      await requireFlagged(id);
      await deleteMemory(ctx, id, "quarantine_delete");
      return { id, deleted: true };
    },
  };
}
