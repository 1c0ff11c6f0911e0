/**
 * What one committed write changed in the graph, handed to the in-memory
 * recall graph after commit so it never has to re-read the store (SPEC §1
 * step 6). Built inside the write transaction; applied only once the chunk
 * it belongs to is reported committed (see `graph-model.ts`).
 */
import type { EdgeRow, EntityChunkLink, EntityRow } from "../store/graph-rows.ts";

/** Rows one write added or retired. */
export interface GraphDelta {
  /** Entities created or touched (upserts). */
  entities: EntityRow[];
  /** Edge rows inserted. */
  inserted: EdgeRow[];
  /** Edges retired: their transaction-time end. */
  retired: { id: number; supersededAt: string }[];
  /** Entity–chunk links added. */
  links: EntityChunkLink[];
}

/** An empty delta. */
export function emptyDelta(): GraphDelta {
  return { entities: [], inserted: [], retired: [], links: [] };
}

/**
 * Receives a delta staged inside a write transaction, keyed by the first
 * chunk the write created; the receiver applies it once that chunk is
 * reported committed with the same content hash.
 */
export type GraphSink = (key: { chunkId: number; contentHash: string }, delta: GraphDelta) => void;
