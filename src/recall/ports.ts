/**
 * Seams other features fill (SPEC §1 step 6 graph leg; §3 supersede and
 * decay semantics). Recall calls them when present and works without them.
 */

/** Context handed to the graph leg. */
export interface GraphLegInput {
  query: string;
  /** Top fused chunk ids so far, best first (extra PPR seeds). */
  seedChunkIds: number[];
  /** Only chunks passing this filter may be returned. */
  filter: (id: number) => boolean;
  /** Historical view (SPEC §4.6 `at`), epoch ms. */
  atMs?: number;
  limit: number;
}

/**
 * The graph leg: ranked chunk ids (best first), hop chains for explain, optionally its own fusion weight for this
 * query, and whether the question is relational (its answer is a graph neighbour the other legs may not find).
 */
export type GraphLeg = (input: GraphLegInput) => Promise<{ ids: number[]; hops?: Map<number, unknown[]>; weight?: number; relational?: boolean }>;

/** Supersede/contradict/decay view of fused candidates. */
export interface TemporalView {
  /** Ids that must not be served (superseded as of `at`/now). */
  drop: Set<number>;
  /** Ids in a contradicts/supersedes link with another current chunk. */
  conflict: Set<number>;
  /** Ids that are decayed (only present when the caller opted in). */
  decayed: Set<number>;
}

/** The temporal filter seam. */
export type TemporalFilter = (ids: number[], opts: { atMs?: number; includeDecayed: boolean }) => Promise<TemporalView>;

/** An optional model reranker (an ONNX cross-encoder): higher is more relevant, one score per document. */
export interface CrossScorer {
  readonly id: string;
  score(query: string, docs: string[]): Promise<number[]>;
}
