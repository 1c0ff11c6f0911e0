/**
 * Boot-time loading of the recall indexes: labels and vectors from libSQL
 * (vectors are the source of truth), the lexical index from its persisted
 * snapshot when it is current (keyed by the audit-chain head, which moves
 * with every governed change, and the chunk count), else rebuilt from rows.
 */
import type { Embedder } from "../embed/embedder.ts";
import { DEFAULT_BM25_PARAMS } from "../lexical/bm25-params.ts";
import { createOramaLexicalIndex } from "../lexical/orama-lexical-index.ts";
import { loadLexicalIndex } from "../lexical/load-lexical-index.ts";
import { auditHead } from "../store/audit.ts";
import { exactVectorReader } from "../store/chunk-reader.ts";
import { countChunks, getChunks, listChunkLabelsAfter, listChunksAfter } from "../store/chunks.ts";
import type { Db } from "../store/db.ts";
import { dbsOf } from "../store/domain-dbs.ts";
import { chunkIdsWithoutVector, listVectorsAfter, listVectorsPacked, putVector } from "../store/vectors.ts";
import { embedText } from "../ingest/write-chunk.ts";
import { actorLabelOf } from "./actor-labels.ts";
import { bootFromNodeCache } from "./load-node-cache.ts";
import { labelsOf, RecallIndex } from "./recall-index.ts";

// Boot pages: one aggregate row per page. Moderate pages keep each transient result small enough for the
// allocator to reuse its memory (first-touched memory is what boot time is mostly made of here).
const LABEL_PAGE = 5000;
const VECTOR_PAGE = 2000;

/** Where the lexical snapshot lives (a file beside the database, provided by the runtime). */
export interface SnapshotStore {
  load(): Promise<unknown | undefined>;
  /** Data is plain JSON unless `binary`: then its large binary fields are `Uint8Array`s (issue 20). */
  save(data: unknown): Promise<void>;
  /** True when `save` writes the snapshot file container (`encodeSnapshotFile`), which takes bytes as they are. */
  readonly binary?: boolean;
}

/** The change key a lexical snapshot must match. */
export async function changeKey(db: Db): Promise<number> {
  return (await auditHead(db.client))?.id ?? 0;
}

/**
 * Builds the recall index for the store. Returns how the lexical leg was obtained. Labels and vectors are
 * read first, so a snapshot that `snapshots.load()` decodes on another thread (the Node runtime) is ready by
 * the time it is needed.
 */
export async function loadRecallIndex(
  db: Db, embedder: Embedder | undefined, snapshots?: SnapshotStore, opts: { nodeVectorRows?: "float32" | "int8" } = {},
): Promise<LoadedRecallIndex> {
  const pending = snapshots ? snapshots.load().catch(() => undefined) : Promise.resolve(undefined);
  const key = await changeKey(db);
  // Issue 20: a node on a libSQL server boots from its cache when it matches this store (load-node-cache.ts).
  const remote = !db.local && db.router === undefined;
  // Issue 20: a server node may keep int8 rows without an exact source (the vectors are a round trip away).
  const int8 = remote && opts.nodeVectorRows === "int8";
  let refused: string | undefined;
  if (remote && snapshots) {
    const saved = await pending;
    const boot = saved == null ? { ok: false as const, reason: "no cache" } : await bootFromNodeCache(db, embedder, saved, loadLexicalIndex(saved), loadLabels, int8);
    if (boot.ok) {
      boot.index.lexical.params = { ...DEFAULT_BM25_PARAMS };
      boot.index.lexical.changeCounter = key;
      return { index: boot.index, lexical: "cache", cache: { used: true, applied: boot.applied } };
    }
    refused = boot.reason;
  }
  // Multi-database mode: one index over every domain's database (ids are unique across them, src/store/domain-dbs.ts).
  const dbs = dbsOf(db);
  let total = 0;
  for (const d of dbs) total += await countChunks(d.client);
  // Issue 25: on a local single file the matrix holds int8 rows and reads exact vectors back for its scores; the
  // exact reader knows one database, so multi-database mode keeps float32 rows.
  const exact = db.router === undefined ? exactVectorReader(db) : undefined;
  const index = new RecallIndex(embedder?.dim, createOramaLexicalIndex(), total + 1024, exact, int8);
  for (const d of dbs) await loadLabels(d, index);
  if (embedder) for (const d of dbs) await loadVectors(d, index, embedder);
  // The snapshot serves when it is current (same audit head and chunk count); otherwise the text is re-indexed.
  const lexical = loadLexicalIndex(await pending);
  // A server node's file is its cache (above), never a lexical snapshot keyed by this store's audit head.
  const fresh = !remote && lexical !== null && lexical.changeCounter === key && lexical.size === total;
  if (fresh) {
    // BM25 parameters apply at query time: a snapshot saved under older defaults is served with the current ones.
    lexical!.params = { ...DEFAULT_BM25_PARAMS };
    index.lexical = lexical!;
  }
  else {
    for (const d of dbs) {
      for (let after = 0; ;) {
        const page = await listChunksAfter(d.client, after, 1000);
        if (!page.length) break;
        for (const c of page) index.lexical.add({ id: c.id, title: c.title, content: c.content });
        after = page[page.length - 1].id;
      }
    }
  }
  index.lexical.changeCounter = key;
  return { index, lexical: fresh ? "snapshot" : "rebuilt", cache: remote && snapshots ? { used: false, refused } : undefined };
}

/** The loaded index, how its lexical leg was obtained, and (a server node with a cache file) what the cache did. */
export interface LoadedRecallIndex {
  index: RecallIndex;
  lexical: "snapshot" | "rebuilt" | "cache";
  cache?: { used: boolean; refused?: string; applied?: { added: number; removed: number } };
}

async function loadLabels(db: Db, index: RecallIndex): Promise<void> {
  for (let after = 0; ;) {
    const page = await listChunkLabelsAfter(db.client, after, LABEL_PAGE);
    if (!page.length) break;
    for (const c of page) {
      index.labels.set(c.id, labelsOf(c));
      if (c.meta) index.actors.set(c.id, actorLabelOf(c.meta));
    }
    after = page[page.length - 1].id;
  }
}

async function loadVectors(db: Db, index: RecallIndex, embedder: Embedder): Promise<void> {
  // Chunks without a vector (first boot with an embedder, or after a model change) are embedded now.
  for (;;) {
    const ids = await chunkIdsWithoutVector(db.client, 256);
    if (!ids.length) break;
    const chunks = await getChunks(db.client, ids);
    const vecs = await embedder.embed(chunks.map(embedText));
    await db.write(async (tx) => {
      for (let i = 0; i < chunks.length; i++) await putVector(tx, chunks[i].id, vecs[i]);
    });
  }
  for (let after = 0; ;) {
    const packed = await listVectorsPacked(db.client, after, VECTOR_PAGE, embedder.dim);
    if (packed && packed.ids.length > 0) {
      index.addVectorPage(packed.ids, packed.data);
      after = packed.ids[packed.ids.length - 1];
      continue;
    }
    const page = packed ? [] : await listVectorsAfter(db.client, after, 10000);
    if (!page.length) break;
    for (const v of page) {
      const l = index.labels.get(v.id);
      if (l) index.addVector(v.id, l.domain, v.vec);
    }
    after = page[page.length - 1].id;
  }
}
