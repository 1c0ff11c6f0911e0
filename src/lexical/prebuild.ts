/**
 * The heavy part of loading a saved lexical index, runnable ahead of
 * `loadLexicalIndex` and on another thread (the Node runtime does it on a
 * worker while boot reads labels and vectors, src/runtime/snapshot-worker.ts).
 * Imports only the snapshot codec, so a worker starts quickly.
 */
import { prebuildStore } from "./store-snapshot.ts";

/** Fills the postings of a saved index (`LexicalIndex.toJSON()` output) in place; returns the buffers to transfer. */
export function prebuildLexicalIndex(saved: unknown): ArrayBuffer[] {
  if (typeof saved !== "object" || saved === null) return [];
  const s = saved as { format?: unknown; kind?: unknown; data?: { index?: { store?: unknown } } };
  if (s.format !== "cairn-lexical") return [];
  return prebuildStore(s.kind === "bm25" ? s.data : s.data?.index?.store);
}
