/**
 * Applies one page of the chunk change sequence to this process's indexes
 * (issue 20). A pure planner folds the page into one action per chunk; the
 * executor reads the rows it needs and calls the indexes' own add/remove
 * API, so it never touches their data structures.
 */
import type { Chunk } from "../core/types.ts";
import type { IndexHooks } from "../ingest/ports.ts";
import { getChunks } from "../store/chunks.ts";
import { vectorsOf, type ChunkChange } from "../store/chunk-changes.ts";
import type { Db } from "../store/db.ts";

/** The indexes a feed keeps in step, and how it asks whether a chunk is already held. */
export interface FeedTarget {
  /** True when this process's indexes already hold the chunk (its own write applied it). */
  has(id: number): boolean;
  /** Every held chunk id (the full reconcile after a gap). */
  ids(): Iterable<number>;
  /** The held quarantine flag of a chunk (the full reconcile compares it). */
  flagged(id: number): boolean | undefined;
  /** The indexes, called in order: the recall index first, then the graph model and the UMP view. */
  followers: readonly IndexHooks[];
  /** True when the recall index keeps vectors (read them with the rows). */
  vectors: boolean;
  /** Called once per page with the chunks it added (the graph model reads their graph rows). */
  afterAdded?: (ids: number[]) => Promise<void>;
  /**
   * Multi-database mode: which of these held ids another database stores. Ids moved by `cairn migrate multi-db`
   * keep their single-file ids, so the id alone does not say which database holds them; the full reconcile asks
   * before it removes one.
   */
  storedElsewhere?: (ids: number[]) => Promise<Set<number>>;
  /** A slice boundary between chunks: a page of 2,000 must not hold the event loop (SPEC §8). */
  pace?: () => Promise<void>;
}

/** What the planner decided for one chunk. */
export type ChangeAction = "remove" | "refresh" | "relabel" | "add-if-missing";

/** Folds a page of changes into one action per chunk, in first-seen order (pure). */
export function planChanges(page: readonly ChunkChange[]): Map<number, ChangeAction> {
  const ops = new Map<number, string>();
  for (const c of page) ops.set(c.chunkId, (ops.get(c.chunkId) ?? "") + c.op);
  const plan = new Map<number, ChangeAction>();
  for (const [id, o] of ops) {
    // Ids are never reused (AUTOINCREMENT), so a delete is final; inserts only → this process may hold it already.
    plan.set(id, o.includes("D") ? "remove" : o.includes("I") ? (o.includes("U") ? "refresh" : "add-if-missing") : "relabel");
  }
  return plan;
}

/** Counts of what one page did. */
export interface ApplyCounts { added: number; removed: number; relabelled: number; skipped: number }

/** Executes a plan against the target; rows are read once, after the changes committed. */
export async function applyPlan(db: Db, plan: ReadonlyMap<number, ChangeAction>, t: FeedTarget): Promise<ApplyCounts> {
  const n: ApplyCounts = { added: 0, removed: 0, relabelled: 0, skipped: 0 };
  const addedIds: number[] = [];
  const need: number[] = [];
  for (const [id, a] of plan) {
    if (a === "remove" || (a === "add-if-missing" && t.has(id))) continue;
    need.push(id);
  }
  const rows = new Map<number, Chunk>();
  for (const c of await getChunks(db.client, need)) rows.set(c.id, c);
  const fresh = need.filter((id) => rows.has(id) && !t.has(id));
  const vecs = t.vectors && fresh.length ? await vectorsOf(db.client, fresh) : new Map<number, Float32Array>();
  let k = 0;
  for (const [id, a] of plan) {
    if (t.pace !== undefined && ++k % 32 === 0) await t.pace();
    // This process's own insert: already held (its rows were not read).
    if (a === "add-if-missing" && t.has(id)) { n.skipped++; continue; }
    const row = rows.get(id);
    if (a === "remove" || row === undefined) {
      // Deleted, erased or dropped: gone from every index (a node never serves an erased chunk once it saw the change).
      if (t.has(id)) {
        for (const f of t.followers) f.removed(id);
        n.removed++;
      } else n.skipped++;
      continue;
    }
    // Content never changes (the content hash is unique), so an update of a held chunk is a label change.
    if ((a === "relabel" || a === "refresh") && t.has(id)) {
      for (const f of t.followers) f.changed?.(row);
      n.relabelled++;
      continue;
    }
    for (const f of t.followers) f.added(row, vecs.get(id));
    addedIds.push(id);
    n.added++;
  }
  if (addedIds.length && t.afterAdded) await t.afterAdded(addedIds);
  return n;
}
