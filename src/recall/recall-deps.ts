/**
 * What the recall pipeline needs (its own file so the pipeline's stages can
 * name it without importing the service that composes them).
 */
import type { Embedder } from "../embed/embedder.ts";
import type { Analyzer } from "../lexical/analyzer.ts";
import type { Db } from "../store/db.ts";
import type { CrossScorer, GraphLeg, TemporalFilter } from "./ports.ts";
import type { RecallIndex } from "./recall-index.ts";
import type { RecallParams } from "./recall-params.ts";

/** What the recall service needs. */
export interface RecallDeps {
  db: Db;
  index: RecallIndex;
  analyzer: Analyzer;
  params: RecallParams;
  embedder?: Embedder;
  clock: () => Date;
  domainExists(name: string): Promise<boolean>;
  graphEnabled: boolean;
  graphLeg?: GraphLeg;
  temporal?: TemporalFilter;
  /** Optional cross-encoder replacing the built-in rerank scores; fails open to them. */
  crossEncoder?: CrossScorer;
  /** Approximate vector search through libSQL's DiskANN index; when set it replaces the matrix scan. */
  ann?: (vec: Float32Array, k: number) => Promise<{ id: number; score: number }[]>;
  /** Records a replayable decision path; returns the audit row id (SPEC §4.1 `trace`). */
  trace?: (path: Record<string, unknown>) => Promise<number>;
}
