/**
 * Shared record shapes of the knowledge store (SPEC §2.1). Plain data only:
 * every layer (store, services, bindings) speaks these types.
 */

/** Ingest kinds stored in the chunk `source` column (SPEC §2.1). */
export const INGEST_KINDS = ["memory", "markdown", "structured", "manual", "vault"] as const;
/** One ingest kind. */
export type IngestKind = (typeof INGEST_KINDS)[number];

/** Origin labels (SPEC §2.1); `channel` is this project's channel-capture label. */
export type Origin = "human" | "model" | "agent" | "operator" | "imported" | "channel";

/** Assertion kinds (SPEC §2.1). */
export const ASSERTION_KINDS = ["stated", "observed", "inferred"] as const;
/** One assertion kind. */
export type AssertionKind = (typeof ASSERTION_KINDS)[number];

/** A stored knowledge entry as read back from the store. Optional labels are absent, never null. */
export interface Chunk {
  id: number;
  title?: string;
  content: string;
  domain: string;
  contentHash: string;
  source: IngestKind;
  origin?: Origin;
  originSource?: string;
  memoryKind?: string;
  lawfulBasis?: string;
  region?: string;
  confidence: number;
  assertionKind?: AssertionKind;
  expiresAt?: string;
  flagged: boolean;
  authority?: number;
  createdAt: string;
  /** Free-form JSON metadata owned by later features (markdown heading path, tags, …). */
  meta?: Record<string, unknown>;
}

/** A new chunk row before insert (id and created_at are assigned by the store). */
export type NewChunk = Omit<Chunk, "id" | "createdAt"> & {
  createdAt?: string;
  /**
   * A reviewer's release from quarantine carried by the operator's own import (SPEC §4.2 lossless round trip): a
   * `quarantine` verdict of the write screen keeps the row unflagged (never a refusal). Not stored as such.
   */
  keepRelease?: boolean;
};

/** Entity input (SPEC §2.6). */
export interface EntityInput {
  name: string;
  type?: string;
}

/** Relation input (SPEC §2.6), with an optional valid window (SPEC §4.2). */
export interface RelationInput {
  from: string;
  to: string;
  type: string;
  valid_at?: string;
  invalid_at?: string;
}
