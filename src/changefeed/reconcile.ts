/**
 * The full reconcile a feed runs when it finds a gap (its cursor is older
 * than the oldest retained change, e.g. a node paused for longer than the
 * retention): every stored chunk id is compared with the held ones, and the
 * difference goes through the indexes' add/remove API.
 */
import { listChunkIdsAfter } from "../store/chunk-changes.ts";
import type { Db } from "../store/db.ts";
import { applyPlan, type ApplyCounts, type ChangeAction, type FeedTarget } from "./apply-changes.ts";

const PAGE = 5000;

/** Brings the target to the store's current chunk set. */
export async function reconcileAll(db: Db, t: FeedTarget): Promise<ApplyCounts> {
  const plan = new Map<number, ChangeAction>();
  const stored = new Set<number>();
  for (let after = 0; ;) {
    const page = await listChunkIdsAfter(db.client, after, PAGE);
    if (!page.length) break;
    for (const { id, flagged } of page) {
      stored.add(id);
      if (!t.has(id)) plan.set(id, "add-if-missing");
      else if (t.flagged(id) !== flagged) plan.set(id, "relabel");
    }
    after = page[page.length - 1].id;
  }
  const gone = [...t.ids()].filter((id) => !stored.has(id));
  const elsewhere = gone.length && t.storedElsewhere ? await t.storedElsewhere(gone) : new Set<number>();
  for (const id of gone) if (!elsewhere.has(id)) plan.set(id, "remove");
  return await applyPlan(db, plan, t);
}
