/**
 * Ports the write path needs. Later features (recall indexes, audit, graph
 * linker) plug in here without the ingest code knowing them.
 */
import type { Chunk, IngestKind, Origin } from "../core/types.ts";
import type { Exec } from "../store/db.ts";

/** Keeps in-memory indexes in step with committed writes. */
export interface IndexHooks {
  /** Called after a chunk commits, with its stored vector when one was computed. */
  added(chunk: Chunk, vector?: Float32Array): void;
  /** Called after a chunk is deleted. */
  removed(id: number): void;
  /** Called after a stored chunk's labels changed (e.g. released from quarantine). */
  changed?(chunk: Chunk): void;
}

/** Runs inside a write transaction after the change rows, so the audit row commits with them (STYLE rule 10). */
export type TxHook = (tx: Exec, event: { action: string; chunkId?: number; detail?: Record<string, unknown> }) => Promise<void>;

/** A clock, injectable for determinism in tests. */
export type Clock = () => Date;

/** A candidate a posture-carrying door files for review instead of writing (SPEC §1 write posture). */
export interface ReviewCandidate {
  content: string;
  title?: string;
  domain?: string;
  origin?: Origin;
  /** The door it came through, e.g. `/ingest/memory`. */
  door: string;
  ingestKind?: IngestKind;
  owner?: string;
  source?: string;
}

/** The review gate the composition root hands the write doors (built in `src/review/`). */
export interface ReviewGate {
  /** Where a write through a posture-carrying `door` goes under the configured posture. */
  route(door: string): "proposal" | "memory";
  /** Files a candidate as a pending proposal. */
  file(c: ReviewCandidate): Promise<{ id: number; domain: string; score: number; verdict: string; duplicate?: true }>;
}
