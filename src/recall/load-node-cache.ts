/**
 * Boot of a server node from its cache (issue 20; src/recall/node-cache.ts has the format). The cache serves only
 * when it was written against this store (`store_identity`), its cursor's change row is still the one it saw
 * (a restored or rewound database has another), and no change after the cursor was pruned (else the deletions in
 * between are unknown). Then:
 *   1. labels are read from the server (one aggregate row per 5,000 chunks: they are small, and fresh labels carry
 *      every quarantine release and relabel);
 *   2. the cached vectors are added for labelled chunks only, so a chunk deleted since is not loaded;
 *   3. the changes after the cursor, up to a head read *after* the labels, are applied: a deletion leaves every
 *      index, a chunk inserted since is read (text and vector) and indexed.
 * A labelled chunk missing from the lexical index or the matrix afterwards means the cache did not cover what it
 * claimed: it is refused and the node reads everything. The feed then replays from the cursor read before boot.
 */
import type { Embedder } from "../embed/embedder.ts";
import type { LexicalIndex } from "../lexical/lexical-index.ts";
import { listChangesAfter, maxChangeSeq, minChangeSeq, vectorsOf } from "../store/chunk-changes.ts";
import { countChunks, getChunks } from "../store/chunks.ts";
import type { Db } from "../store/db.ts";
import { changeAt, storeIdentity } from "../store/store-identity.ts";
import { planChanges } from "../changefeed/apply-changes.ts";
import { readNodeSection } from "./node-cache.ts";
import { RecallIndex } from "./recall-index.ts";

const CHANGE_PAGE = 2000;

/** What a cache boot did, or why the cache was refused. */
export type NodeCacheBoot =
  | { ok: true; index: RecallIndex; cursor: number; applied: { added: number; removed: number } }
  | { ok: false; reason: string };

/** Loads the indexes from a decoded cache, or says why not (the caller then reads everything). */
export async function bootFromNodeCache(
  db: Db, embedder: Embedder | undefined, saved: unknown, lexical: LexicalIndex | null,
  loadLabels: (db: Db, index: RecallIndex) => Promise<void>, int8 = false,
): Promise<NodeCacheBoot> {
  if (lexical === null) return { ok: false, reason: "no lexical snapshot" };
  const section = readNodeSection(saved, embedder ? { id: embedder.id, dim: embedder.dim } : null);
  if (!section.ok) return section;
  const { key } = section;
  if (key.storeId !== (await storeIdentity(db.client))) return { ok: false, reason: "cache written against another store" };
  const head = await maxChangeSeq(db.client);
  if (key.cursor > head) return { ok: false, reason: "cache is ahead of the store" };
  if (key.cursor > 0) {
    const row = await changeAt(db.client, key.cursor);
    if (!row || row.chunkId !== key.cursorChunk || row.atMs !== key.cursorAtMs) return { ok: false, reason: "the store's history differs at the cache's cursor" };
  } else if (head > 0 && (await minChangeSeq(db.client)) > 1) {
    return { ok: false, reason: "changes after the cache's cursor were pruned" };
  }
  const total = await countChunks(db.client);
  if (section.vectors && "int8" in section.vectors && !int8) return { ok: false, reason: "cache holds int8 vector rows, this node keeps float32" };
  const index = new RecallIndex(embedder?.dim, lexical, total + 1024, undefined, int8);
  await loadLabels(db, index);
  // Every labelled chunk's insert is at or below this head (the labels were read first, changes commit in order).
  const top = await maxChangeSeq(db.client);
  if (section.vectors && index.vectors) {
    const v = section.vectors;
    const dim = index.vectors.dim;
    for (let at = 0; at < v.ids.length; at += 2000) {
      const end = Math.min(at + 2000, v.ids.length);
      const ids = Array.from(v.ids.subarray(at, end));
      // A float32 cache serves an int8 node too (its rows are quantised as they are added).
      if ("int8" in v) index.addQuantisedPage(ids, v.int8.subarray(at * dim, end * dim), v.scales.subarray(at, end));
      else index.addVectorPage(ids, v.data.subarray(at * dim, end * dim));
    }
  }
  const applied = { added: 0, removed: 0 };
  for (let after = key.cursor; after < top;) {
    const page = (await listChangesAfter(db.client, after, CHANGE_PAGE)).filter((c) => c.seq <= top);
    if (!page.length) break;
    const need: number[] = [];
    for (const [id, action] of planChanges(page)) {
      if (action === "remove") {
        // Gone from every index, whether or not the labels (read before the deletion) still name it.
        if (index.labels.has(id) || index.lexical.has(id) || index.vectors?.has(id)) applied.removed++;
        index.removed(id);
      } else if (index.labels.has(id) && (!index.lexical.has(id) || (index.vectors !== undefined && !index.vectors.has(id)))) need.push(id);
    }
    if (need.length) {
      const vecs = index.vectors ? await vectorsOf(db.client, need) : new Map<number, Float32Array>();
      for (const c of await getChunks(db.client, need)) {
        if (!index.lexical.has(c.id)) index.lexical.add({ id: c.id, title: c.title, content: c.content });
        const v = vecs.get(c.id);
        if (v && index.vectors && !index.vectors.has(c.id)) index.addVector(c.id, c.domain, v);
        applied.added++;
      }
    }
    after = page[page.length - 1].seq;
  }
  // Chunks not in the labels any more (deleted in between) may still sit in the cached lexical index only if their
  // deletion was not in the changes read: then the sizes differ and the cache is not trusted.
  if (index.lexical.size !== index.labels.size) return { ok: false, reason: `lexical index holds ${index.lexical.size} chunks, the store ${index.labels.size}` };
  if (index.vectors && index.vectors.size !== index.labels.size) return { ok: false, reason: `matrix holds ${index.vectors.size} vectors, the store ${index.labels.size} chunks` };
  return { ok: true, index, cursor: top, applied };
}
