/**
 * The in-memory view of UMP record metadata (no text), kept in step with
 * every UMP write: which records sit on which chunk, their scope, and their
 * valid window. Recall filters on it synchronously, before ranking (SPEC §1
 * Trust rules: filter by scope before ranking), and the temporal seam uses it
 * to hide superseded, forgotten and retention-expired records from current
 * recall while a past `at` still sees the old version (SPEC §3).
 */
import type { TemporalFilter } from "../recall/ports.ts";
import type { Db } from "../store/db.ts";
import { listUmpRowsAfter, type UmpRow } from "../store/ump-records.ts";

/** What recall needs to know about one record. */
export interface UmpMeta {
  id: string;
  seq: number;
  chunkId: number;
  kind: string;
  /** The record's scope (owner, user, project, agent, session, visibility). */
  scope: Record<string, string>;
  status: string;
  validFromMs: number;
  validToMs?: number;
  expiresMs?: number;
}

/** The index. */
export interface UmpIndex {
  get(id: string): UmpMeta | undefined;
  /** Records on a chunk, oldest first. */
  onChunk(chunkId: number): readonly UmpMeta[];
  put(meta: UmpMeta): void;
  remove(id: string): void;
  removeChunk(chunkId: number): void;
  size(): number;
  all(): IterableIterator<UmpMeta>;
}

/** Metadata of a stored row. */
export function metaOfRow(r: UmpRow): UmpMeta {
  const scope = (JSON.parse(r.record) as { scope?: Record<string, string> }).scope ?? { owner: r.owner, visibility: r.visibility };
  const m: UmpMeta = { id: r.id, seq: r.seq, chunkId: r.chunkId, kind: r.kind, scope, status: r.status, validFromMs: Date.parse(r.validFrom) };
  if (r.validTo !== undefined) m.validToMs = Date.parse(r.validTo);
  if (r.expiresAt !== undefined) m.expiresMs = Date.parse(r.expiresAt);
  return m;
}

/** True when the record is served at `refMs` (its valid window holds it, not forgotten, retention not past at `nowMs`). */
export function isLive(m: UmpMeta, refMs: number, nowMs: number): boolean {
  if (m.status === "tombstoned") return false;
  if (m.expiresMs !== undefined && m.expiresMs <= nowMs) return false;
  if (m.validFromMs > refMs) return false;
  return m.validToMs === undefined || m.validToMs > refMs;
}

/** Builds an empty index. */
export function createUmpIndex(): UmpIndex {
  const byId = new Map<string, UmpMeta>();
  const byChunk = new Map<number, UmpMeta[]>();
  const detach = (m: UmpMeta) => {
    const list = byChunk.get(m.chunkId)?.filter((x) => x.id !== m.id) ?? [];
    if (list.length) byChunk.set(m.chunkId, list);
    else byChunk.delete(m.chunkId);
  };
  return {
    get: (id) => byId.get(id),
    onChunk: (chunkId) => byChunk.get(chunkId) ?? [],
    put(meta) {
      const old = byId.get(meta.id);
      if (old) detach(old);
      byId.set(meta.id, meta);
      const list = [...(byChunk.get(meta.chunkId) ?? []), meta].sort((a, b) => a.seq - b.seq);
      byChunk.set(meta.chunkId, list);
    },
    remove(id) {
      const old = byId.get(id);
      if (!old) return;
      detach(old);
      byId.delete(id);
    },
    removeChunk(chunkId) {
      for (const m of byChunk.get(chunkId) ?? []) byId.delete(m.id);
      byChunk.delete(chunkId);
    },
    size: () => byId.size,
    all: () => byId.values(),
  };
}

/** Loads every stored record's metadata. */
export async function loadUmpIndex(db: Db): Promise<UmpIndex> {
  const index = createUmpIndex();
  await catchUpUmpIndex(db, index);
  return index;
}

/**
 * Adds the stored records the index has not heard of (rows with a higher `seq` than any it holds): the ones a bulk
 * write committed without going through the UMP door, e.g. a domain snapshot import (SPEC §4.5), so they count
 * without a restart.
 */
export async function catchUpUmpIndex(db: Db, index: UmpIndex): Promise<void> {
  let after = 0;
  for (const m of index.all()) if (m.seq > after) after = m.seq;
  for (;;) {
    const rows = await listUmpRowsAfter(db.client, after, 2000);
    for (const r of rows) index.put(metaOfRow(r));
    if (rows.length < 2000) return;
    after = rows[rows.length - 1].seq;
  }
}

/**
 * The UMP part of the recall temporal seam: a chunk that carries UMP records
 * is dropped when none of them is live at the query's `at` (or now). Chunks
 * with no UMP record are left alone.
 */
export function umpTemporalFilter(index: UmpIndex, clock: () => Date): TemporalFilter {
  return (ids, opts) => {
    const nowMs = clock().getTime();
    const ref = opts.atMs ?? nowMs;
    const drop = new Set<number>();
    for (const id of ids) {
      const versions = index.onChunk(id);
      if (versions.length && !versions.some((m) => isLive(m, ref, nowMs))) drop.add(id);
    }
    return Promise.resolve({ drop, conflict: new Set<number>(), decayed: new Set<number>() });
  };
}
