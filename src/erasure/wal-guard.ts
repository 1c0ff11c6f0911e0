/**
 * Keeps erased text out of the write-ahead log (issue 23 §4; SPEC §1 item 6).
 * With `secure_delete` the database overwrites a deleted row's bytes, but the
 * WAL still holds the frames written before the delete until a checkpoint
 * folds them in and the file is truncated. This index hook asks for a
 * TRUNCATE checkpoint after every removal (coalesced while one is queued);
 * the erasure routes answer only once it has run (`settled()`).
 */
import type { IndexHooks } from "../ingest/ports.ts";
import type { Db } from "../store/db.ts";

/** An index hook that checkpoints the WAL after removals. */
export interface WalGuard extends IndexHooks {
  /** Resolves when every checkpoint asked for so far has run. */
  settled(): Promise<void>;
}

/** Builds the guard for a database (a no-op for a remote server: its files are not ours). */
export function createWalGuard(db: Db, onError: (e: unknown) => void): WalGuard {
  let pending: Promise<void> = Promise.resolve();
  let queued = false;
  const ask = () => {
    if (!db.local || queued) return;
    queued = true;
    // After the removing transaction's commit (the hook runs after it); one checkpoint serves a burst of removals.
    pending = Promise.resolve().then(async () => {
      queued = false;
      if (!(await db.checkpoint())) onError(new Error("checkpoint stayed busy"));
    }).catch(onError);
  };
  return { added: () => {}, removed: ask, settled: () => pending };
}
