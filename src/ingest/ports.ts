/**
 * Ports the write path needs. Later features (recall indexes, audit, graph
 * linker) plug in here without the ingest code knowing them.
 */
import type { Chunk } from "../core/types.ts";
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
