/**
 * Ports the write path needs. Later features (recall indexes, audit, graph
 * linker) plug in here without the ingest code knowing them.
 */
import type { Chunk, IngestKind, Origin } from "../core/types.ts";
import type { ScreenResult } from "../hygiene/screen.ts";
import type { ParsedMarkdown } from "../markdown/parse-markdown.ts";
import type { Exec } from "../store/db.ts";

/** Keeps in-memory indexes in step with committed writes. */
export interface IndexHooks {
  /** Called after a chunk commits, with its stored vector when one was computed. */
  added(chunk: Chunk, vector?: Float32Array): void;
  /** Called after a chunk is deleted. */
  removed(id: number): void;
  /** Called after a stored chunk's labels changed (e.g. released from quarantine). */
  changed?(chunk: Chunk): void;
  /** Called after a bulk write (a domain snapshot import) committed rows beside the chunks it announced one by one. */
  caughtUp?(): Promise<void>;
}

/** What a transaction hook hears about one change. */
export interface TxEvent { action: string; chunkId?: number; detail?: Record<string, unknown> }

/**
 * Runs inside a write transaction after the change rows, so the audit row commits with them (STYLE rule 10).
 * `many`, when present, takes a batch's events in order in one call (batch ingest); otherwise the hook is called
 * once per event, in order.
 */
export type TxHook = ((tx: Exec, event: TxEvent) => Promise<void>) & { many?: (tx: Exec, events: readonly TxEvent[]) => Promise<void> };

/** Runs every hook over a batch's events, in order. */
export async function runTxHooks(hooks: readonly TxHook[], tx: Exec, events: readonly TxEvent[]): Promise<void> {
  if (events.length === 0) return;
  for (const h of hooks) {
    if (h.many) await h.many(tx, events);
    else for (const ev of events) await h(tx, ev);
  }
}

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
  /** A UMP door's sealed record (issue 22 item 1): approval stores it under `id`, the id the door handed out. */
  umpRecord?: { id: string; json: string };
  /** The door's identity hash (default XXH3-64 of `content`) and the chunk metadata kept for the promoted chunk (issue 24). */
  contentHash?: string;
  meta?: Record<string, unknown>;
}

/** The review gate the composition root hands the write doors (built in `src/review/`). */
export interface ReviewGate {
  /** Where a write through a posture-carrying `door` goes under the configured posture. */
  route(door: string): "proposal" | "memory";
  /** Files a candidate as a pending proposal. */
  file(c: ReviewCandidate): Promise<{ id: number; domain: string; score: number; verdict: string; duplicate?: true }>;
}

/** One text job of a batch: the text the screen reads and the text the embedder reads (issue 25). */
export interface TextJob { screen: string; embed: string }

/** What the workers return for one job: the rules verdict (no classifier) and the vector. */
export interface TextJobResult { screen: ScreenResult; vector: Float32Array }

/**
 * Worker threads that run the rules screen and the static embedding of a batch beside the main thread
 * (issue 25; built in src/runtime/text-pool.ts). Both are pure functions of the text, so the results are the
 * ones the main thread would compute; the write path uses the pool only when `embedderId` is its embedder's id.
 */
export interface TextWork {
  /** The id of the embedder the workers run (the table's hash in it), or undefined until they are ready. */
  readonly embedderId: string | undefined;
  /** How many of a batch of `n` jobs go to the workers (0: run all in-thread); the rest run in-thread meanwhile. */
  offThread(n: number): number;
  /** Posts the jobs to the workers at once and resolves with their results in input order; rejects when a worker fails. */
  run(jobs: readonly TextJob[]): Promise<TextJobResult[]>;
  /** Stops the workers. */
  close(): Promise<void>;
}

/**
 * A worker thread for the markdown parse of large documents (SPEC §8; built in src/runtime/parse-pool.ts): the same
 * parser off the event loop, stoppable by the request's deadline.
 */
export interface ParseWork {
  /** Parses `text` on the worker; rejects when `signal` aborts (the worker is stopped) or the worker fails. */
  parseMarkdown(text: string, signal?: AbortSignal): Promise<ParsedMarkdown>;
  close(): Promise<void>;
}
