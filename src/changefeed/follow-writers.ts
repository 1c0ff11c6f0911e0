/**
 * The change feed as the composition root wires it (issue 20; docs/scale-out.md "Several nodes over one libSQL server"): the
 * recall index, the graph model and the UMP view follow every other process's and node's chunk writes, and every
 * recall first applies the changes committed before it (`catchUp`), so a write acknowledged anywhere is recallable
 * here at once.
 */
import type { IndexHooks } from "../ingest/ports.ts";
import type { Db } from "../store/db.ts";
import { storedChunkIds } from "../store/chunk-changes.ts";
import { graphOfChunks } from "../store/graph-of-chunks.ts";
import { type ChangeFeed, createChangeFeed } from "./change-feed.ts";

/** What the feed needs from the services it keeps in step (structural: no import of their modules). */
export interface FollowDeps {
  db: Db;
  cursor: number;
  pollMs: number;
  labels: { has(id: number): boolean; keys(): Iterable<number>; get(id: number): { flagged: boolean } | undefined };
  /** The recall index first, then the graph model and the UMP view (the file guards are not followers: the writing
   *  process ran them with its own write). */
  followers: readonly IndexHooks[];
  vectors: boolean;
  /** Another writer's chunks bring their entities, links and owned edges into the graph recall leg's model. */
  applyGraph(g: Awaited<ReturnType<typeof graphOfChunks>>): void;
  /** …and their UMP record metadata, so UMP scope filtering holds for them here too (SPEC §1 Trust rules). */
  followUmp(ids: number[]): Promise<void>;
  onError(e: unknown): void;
  /** Multi-database mode: the held ids another database stores (`FeedTarget.storedElsewhere`). */
  storedElsewhere?: (ids: number[]) => Promise<Set<number>>;
}

/** Builds the feed (the composition root makes every recall call `catchUp()` first). */
export function followOtherWriters(d: FollowDeps): ChangeFeed {
  const changes = createChangeFeed({
    db: d.db, cursor: d.cursor, pollMs: d.pollMs, onError: d.onError,
    target: {
      has: (id) => d.labels.has(id), ids: () => d.labels.keys(), flagged: (id) => d.labels.get(id)?.flagged,
      followers: d.followers, vectors: d.vectors, storedElsewhere: d.storedElsewhere,
      afterAdded: async (ids) => {
        d.applyGraph(await graphOfChunks(d.db.client, ids));
        await d.followUmp(ids);
      },
    },
  });
  return changes;
}

/** A database to follow, with its cursor and the ids it may hold. */
export interface FollowedDb {
  db: Db;
  cursor: number;
  owns: (id: number) => boolean;
}

/** The combined feed; `follow` adds a database opened after boot (a domain created since, here or elsewhere). */
export interface MultiFeed extends ChangeFeed {
  follow(x: FollowedDb): void;
  followed(db: Db): boolean;
  /** Stops following every database not in `open` (a dropped domain's). */
  retain(open: readonly Db[]): void;
}

/**
 * Multi-database mode (docs/scale-out.md "One database per domain"): each database has its own change sequence, so one feed per
 * database, combined. A feed's full reconcile compares only the ids its database may hold, and before removing one
 * asks the other databases (moved rows keep their single-file ids).
 */
export function followEveryDatabase(d: Omit<FollowDeps, "db" | "cursor">, first: readonly FollowedDb[]): MultiFeed {
  const dbs: FollowedDb[] = [];
  const feeds: ChangeFeed[] = [];
  let started = false;
  const follow = (x: FollowedDb) => {
    dbs.push(x);
    const feed = followOtherWriters({
      ...d, db: x.db, cursor: x.cursor,
      storedElsewhere: async (ids) => {
        const found = new Set<number>();
        for (const other of dbs) if (other !== x) for (const id of await storedChunkIds(other.db.client, ids)) found.add(id);
        return found;
      },
      labels: { has: (id) => d.labels.has(id), get: (id) => d.labels.get(id), keys: () => [...d.labels.keys()].filter(x.owns) },
    });
    feeds.push(feed);
    if (started) feed.start();
  };
  for (const x of first) follow(x);
  return {
    follow,
    followed: (db) => dbs.some((x) => x.db === db),
    retain(open) {
      for (let i = dbs.length - 1; i >= 0; i--) {
        if (open.includes(dbs[i].db)) continue;
        feeds[i].stop();
        dbs.splice(i, 1);
        feeds.splice(i, 1);
      }
    },
    async catchUp() {
      for (const f of [...feeds]) await f.catchUp();
    },
    start: () => {
      started = true;
      feeds.forEach((f) => f.start());
    },
    stop: () => {
      started = false;
      feeds.forEach((f) => f.stop());
    },
    async status() {
      // The global database's feed, with the lag summed over every database.
      const all = await Promise.all(feeds.map((f) => f.status()));
      return { ...all[0], lag: all.reduce((n, s) => n + s.lag, 0) };
    },
  };
}
