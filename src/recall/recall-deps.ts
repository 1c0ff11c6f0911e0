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

/** What the tuning probe sees of one search. */
export interface RerankProbe {
  query: string;
  /** The head in fused order, each with its rerank features. */
  head: { id: number; features: Record<string, number> }[];
  /** Ids after the head, in fused order. */
  tail: number[];
  /** Whether the query names a labelled speaker / a date (the `speaker` and `date` features count). */
  speaker: boolean;
  date: boolean;
}

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
  /**
   * Tuning seam (scripts/cv-recall.ts): sees each search's reranked head with every candidate's features and
   * the fused order behind it, so weights can be cross-validated without re-running the pipeline. Never set
   * when serving.
   */
  probe?: (p: RerankProbe) => void;
  /** Records a replayable decision path; returns the audit row id (SPEC §4.1 `trace`). */
  trace?: (path: Record<string, unknown>) => Promise<number>;
}
