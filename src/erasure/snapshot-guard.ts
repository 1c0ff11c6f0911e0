/**
 * Keeps the persisted lexical snapshot from outliving a deletion (SPEC §1
 * item 6; §3 erasure row: after an erasure no route, export, index or
 * cache returns the erased text). The snapshot file is written only at a
 * graceful close, so between boot and close the file on disk still holds
 * the terms of every chunk a delete, purge, quarantine delete or erasure
 * removed since — and after a crash it would keep them until the next
 * graceful close. The guard overwrites it with an empty marker on the
 * first removal (the loader answers "rebuild from the database" for it),
 * and again at boot when the snapshot on disk was found stale. The close
 * then writes a current snapshot, which holds live documents only.
 */
import type { IndexHooks } from "../ingest/ports.ts";
import type { SnapshotStore } from "../recall/load-index.ts";

/** The marker the loader reads as "no snapshot" (`loadLexicalIndex(null)` is null). */
const NO_SNAPSHOT = null;

/** An index hook that invalidates the persisted snapshot; `settled()` resolves once the file no longer holds removed text. */
export interface SnapshotGuard extends IndexHooks {
  /** Invalidates the snapshot now (e.g. at boot, when the file on disk is stale). */
  invalidate(): void;
  /** Resolves when every invalidation started so far has reached the disk. */
  settled(): Promise<void>;
}

/** Builds the guard over the runtime's snapshot store (absent for a remote database: nothing on disk to guard). */
export function createSnapshotGuard(store: SnapshotStore | undefined, onError: (e: unknown) => void): SnapshotGuard {
  let pending: Promise<void> = Promise.resolve();
  // One write per process lifetime is enough: nothing else writes the file until the close persists a current one.
  let invalidated = false;
  const invalidate = () => {
    if (!store || invalidated) return;
    invalidated = true;
    pending = store.save(NO_SNAPSHOT).catch((e) => {
      invalidated = false; // try again on the next removal
      onError(e);
    });
  };
  return {
    added: () => {},
    removed: invalidate,
    invalidate,
    settled: () => pending,
  };
}
