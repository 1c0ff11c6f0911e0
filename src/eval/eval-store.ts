/**
 * The store an evaluation fills and queries (SPEC §4.12 `eval`): the doors a user would use, recall in a mode, the
 * chunks as stored (for the FTS5 baseline) and a restart. `src/cli/eval.ts` backs it with a temporary store.
 */
import type { EvalMode } from "./recall-modes.ts";

/** A store the evaluation fills and queries. */
export interface EvalStore {
  /** Ingests documents in order through the bulk door; returns each one's chunk id (a duplicate returns the first copy's id). */
  ingest(docs: readonly { title: string; content: string }[]): Promise<number[]>;
  /** Recalls up to `limit` chunk ids, best first, with a mode's parameters; `abstained` when recall answered `low_confidence`. */
  recall(query: string, limit: number, mode?: EvalMode): Promise<{ ids: number[]; abstained: boolean }>;
  /**
   * Ingests one conversation session through the conversation door (`POST /ingest/conversation`); returns
   * each turn's chunk id in turn order (undefined for a skipped turn). When present, LoCoMo goes through it.
   */
  ingestConversation?(session: { id: string; date?: string }, turns: readonly { speaker: string; text: string; id: string }[]): Promise<(number | undefined)[]>;
  /** The memory door (`POST /ingest/memory`): each entry's chunk id, undefined when it was skipped or rejected. */
  ingestMemories?(entries: readonly { title?: string; content: string }[]): Promise<(number | undefined)[]>;
  /** The markdown door (`POST /ingest/markdown`): the chunk ids of one document. */
  ingestMarkdown?(doc: { title: string; content: string }): Promise<number[]>;
  /** Every chunk the store holds, as stored (the FTS5 baseline indexes exactly these). */
  chunks?(): Promise<{ id: number; title?: string; content: string }[]>;
  /** Ranks by SQLite FTS5 over `chunks()` (built on first use). */
  fts5?(query: string, limit: number): Promise<number[]>;
  /** Closes the store and opens it again on the same database (a restart); later recalls go to the reopened one. */
  restart?(): Promise<void>;
  close(): Promise<void>;
}

