/**
 * Keeps erased text out of the write-ahead log (issue 23 §4; SPEC §1 item 6).
 * With `secure_delete` the database overwrites a deleted row's bytes, but the
 * WAL still holds the frames written before the delete until a checkpoint
 * folds them in and the file is truncated. This index hook asks for a
 * TRUNCATE checkpoint after every removal (coalesced while one is queued);
 * the erasure routes answer only once it has run (`settled()`). In
 * multi-database mode (issue 35) the databases that hold the removed ids are
 * checkpointed, the global one always (the proposals, workflow and claim rows
 * an erasure deletes or redacts live there).
 */
import type { IndexHooks } from "../ingest/ports.ts";
import type { Db } from "../store/db.ts";
import { dbsOf, groupIds } from "../store/domain-dbs.ts";

/** An index hook that checkpoints the WAL after removals. */
export interface WalGuard extends IndexHooks {
  /** Resolves when every checkpoint asked for so far has run. */
  settled(): Promise<void>;
  /** Asks for a checkpoint of every database: an erasure that removed no chunk (it redacted or deleted other rows) still rewrote text. */
  sweep(): void;
}

/** Builds the guard for a database (a no-op for a remote server: its files are not ours). */
export function createWalGuard(db: Db, onError: (e: unknown) => void): WalGuard {
  let pending: Promise<void> = Promise.resolve();
  const removed = new Set<number>();
  let queued = false;
  let everything = false;
  const ask = (id?: number) => {
    if (!db.local) return;
    if (id === undefined) everything = true;
    else removed.add(id);
    if (queued) return;
    queued = true;
    // After the removing transaction's commit (the hook runs after it); one checkpoint serves a burst of removals.
    pending = Promise.resolve().then(async () => {
      queued = false;
      const ids = [...removed];
      const all = everything;
      removed.clear();
      everything = false;
      const dbs = new Set<Db>(all ? dbsOf(db) : [db, ...groupIds(db, ids).map(([d]) => d)]);
      for (const d of dbs) if (!(await d.checkpoint())) onError(new Error("checkpoint stayed busy"));
    }).catch(onError);
  };
  return { added: () => {}, removed: (id) => ask(id), settled: () => pending, sweep: () => ask() };
}
