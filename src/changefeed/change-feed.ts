/**
 * The change feed (issue 20): each process tails the chunk change sequence
 * (migration 70) and applies new changes to its in-memory indexes, so a
 * write made by another process on the same file (`cairn ingest-dir` while
 * `cairn serve` runs) or by another node on the same libSQL server becomes
 * recallable here. `catchUp()` applies every change committed before the
 * call; recall calls it first (one primary-key read when nothing is new),
 * and a short interval keeps an idle node current. Concurrent callers share
 * one pass; a caller that arrives during a pass waits for the next one, so
 * its own bound holds. src/changefeed/README.md has the figures.
 */
import { listChangesAfter, maxChangeSeq, minChangeSeq, pruneChanges } from "../store/chunk-changes.ts";
import type { Db } from "../store/db.ts";
import { applyPlan, planChanges, type FeedTarget } from "./apply-changes.ts";
import { reconcileAll } from "./reconcile.ts";
import { createStalenessWindow } from "./staleness.ts";

const PAGE = 2000;
/** Changes are kept this long; a node further behind runs the full reconcile instead. */
export const CHANGE_RETENTION_MS = 24 * 3600_000;
const PRUNE_EVERY_MS = 3600_000;

/** The feed's state as `/health/db` shows it. */
export interface FeedStatus {
  /** The last change applied here. */
  cursor: number;
  /** The newest change on the store. */
  store_seq: number;
  /** Changes committed on the store and not yet applied here. */
  lag: number;
  passes: number;
  applied: { added: number; removed: number; relabelled: number };
  reconciles: number;
  /** Commit-to-applied delay of other writers' changes applied by this node (ms, last 1,000), background passes included. */
  staleness_ms: { samples: number; p50?: number; p99?: number; max?: number };
  poll_ms: number;
}

/** A running feed. */
export interface ChangeFeed {
  /** Applies every change committed before the call. */
  catchUp(): Promise<void>;
  /** Starts the background pass every `pollMs` (0 = never); pruning of old changes rides on it. */
  start(): void;
  stop(): void;
  status(): Promise<FeedStatus>;
}

/** Builds a feed from a cursor read before the indexes were loaded (changes during the load are replayed idempotently). */
export function createChangeFeed(o: { db: Db; target: FeedTarget; cursor: number; pollMs: number; now?: () => number; onError?: (e: unknown) => void }): ChangeFeed {
  const now = o.now ?? Date.now;
  let cursor = o.cursor;
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastPrune = 0;
  const counts = { passes: 0, added: 0, removed: 0, relabelled: 0, reconciles: 0 };
  const staleness = createStalenessWindow(1000);

  const pass = async (): Promise<void> => {
    const top = await maxChangeSeq(o.db.client);
    if (top <= cursor) return;
    counts.passes++;
    if ((await minChangeSeq(o.db.client)) > cursor + 1) {
      // A gap: the changes this node missed were pruned. Compare the whole chunk set instead.
      const n = await reconcileAll(o.db, o.target);
      counts.reconciles++;
      counts.added += n.added; counts.removed += n.removed; counts.relabelled += n.relabelled;
      cursor = top;
      return;
    }
    while (cursor < top) {
      const page = await listChangesAfter(o.db.client, cursor, PAGE);
      if (!page.length) break;
      const n = await applyPlan(o.db, planChanges(page), o.target);
      counts.added += n.added; counts.removed += n.removed; counts.relabelled += n.relabelled;
      // Staleness counts only changes this pass had to apply (another writer's), not this process's own.
      if (n.added + n.removed + n.relabelled > 0) staleness.add(now() - page[0].atMs);
      cursor = page[page.length - 1].seq;
    }
  };

  const catchUp = (): Promise<void> => {
    if (queued) return queued;
    if (running) {
      // A pass in flight may have read the head before this caller's change committed: wait for a fresh one.
      queued = running.catch(() => {}).then(() => {
        queued = undefined;
        return catchUp();
      });
      return queued;
    }
    running = pass().finally(() => void (running = undefined));
    return running;
  };

  const tick = async () => {
    await catchUp();
    if (now() - lastPrune >= PRUNE_EVERY_MS) {
      lastPrune = now();
      await o.db.write((tx) => pruneChanges(tx, now() - CHANGE_RETENTION_MS));
    }
  };

  return {
    catchUp,
    start() {
      if (timer !== undefined || o.pollMs <= 0) return;
      timer = setInterval(() => void tick().catch((e) => o.onError?.(e)), o.pollMs);
      // A background poll must not keep a process alive on its own (Node); Deno's interval ids have no unref.
      (timer as unknown as { unref?: () => void }).unref?.();
    },
    stop() {
      if (timer !== undefined) clearInterval(timer);
      timer = undefined;
    },
    async status() {
      const top = await maxChangeSeq(o.db.client);
      return {
        cursor, store_seq: top, lag: Math.max(0, top - cursor), passes: counts.passes,
        applied: { added: counts.added, removed: counts.removed, relabelled: counts.relabelled }, reconciles: counts.reconciles,
        staleness_ms: staleness.summary(), poll_ms: o.pollMs,
      };
    },
  };
}
