/** What every write door needs: the store, a clock, the embedder and the hooks (built by the composition root). */
import type { InjectionPolicy } from "../config/config.ts";
import type { WorkScope } from "../core/deadline.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { GraphSink } from "../graph/graph-delta.ts";
import type { InjectionClassifier } from "../screen-model/classifier.ts";
import type { Db } from "../store/db.ts";
import type { Clock, IndexHooks, ParseWork, ReviewGate, TextWork, TxHook } from "./ports.ts";

/** Shared write-path context. */
export interface WriteContext {
  db: Db;
  clock: Clock;
  embedder?: Embedder;
  /** In-memory index hooks, called after commit. */
  indexHooks: IndexHooks[];
  /** In-transaction hooks (audit rows), called before commit. */
  txHooks: TxHook[];
  /** Capacity envelope for the 507 guard (SPEC §8). */
  maxDocs: number;
  /** What the screen does with a Quarantine verdict. */
  injectionPolicy: InjectionPolicy;
  /** The optional local injection classifier (SPEC §1; issue 26): it can only move verdicts toward quarantine/reject. */
  classifier?: InjectionClassifier;
  /** Receives the graph rows a write staged, for the in-memory recall graph (SPEC §1 step 6). */
  graphSink?: GraphSink;
  /** Worker threads for a batch's screen and embedding (issue 25); absent: all in-thread. */
  textWork?: TextWork;
  /** Write-posture gate for the posture-carrying doors (SPEC §1); absent means every write is direct. */
  review?: ReviewGate;
  /** Where the running request's deadline is found: the write path paces its CPU-bound steps by it (SPEC §8). */
  work?: WorkScope;
  /** A worker thread for the parse of long markdown documents (SPEC §8); absent: parsed in-thread. */
  parseWork?: ParseWork;
}
