/**
 * The recall engine the composition root builds: the in-memory index kept
 * in step with writes, the 8 s search budget (SPEC §8 → 503
 * `recall_unavailable`), snapshot persistence of the lexical leg, and the
 * seams later features fill (graph leg, temporal filter).
 */
import { isMemoryError, MemoryError } from "../core/errors.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { InjectionPolicy } from "../hygiene/injection-policy.ts";
import { createAnalyzer } from "../lexical/analyzer.ts";
import type { Db } from "../store/db.ts";
import { changeKey, loadRecallIndex, type SnapshotStore } from "./load-index.ts";
import type { CrossScorer, GraphLeg, TemporalFilter } from "./ports.ts";
import { validateQueryDoc } from "./query-doc.ts";
import type { RecallIndex } from "./recall-index.ts";
import { DEFAULT_RECALL_PARAMS, type RecallParams } from "./recall-params.ts";
import { runRecall, type RecallDeps } from "./recall-service.ts";

/** Options of one recall call from a binding. */
export interface RecallCallOptions {
  /** The principal holds `pii:read` (SPEC §1 read seam). */
  piiRead?: boolean;
  /** `?source=` query parameter (SPEC §4.1). */
  sourceParam?: string;
}

/** The engine. */
export interface RecallEngine {
  readonly index: RecallIndex;
  readonly lexicalSource: "snapshot" | "rebuilt";
  recall(body: unknown, opts?: RecallCallOptions): Promise<Record<string, unknown>>;
  setGraphLeg(leg: GraphLeg): void;
  setTemporalFilter(f: TemporalFilter): void;
  /** Saves the lexical snapshot (on shutdown). */
  persist(): Promise<void>;
  params: RecallParams;
}

/** Builds the engine (loads indexes from the store). */
export async function createRecallEngine(o: {
  db: Db; embedder?: Embedder; snapshots?: SnapshotStore; clock: () => Date; budgetMs: number; graphEnabled: boolean;
  domainExists(name: string): Promise<boolean>; trace?: RecallDeps["trace"]; params?: Partial<RecallParams>;
  crossEncoder?: CrossScorer;
  injectionPolicy?: InjectionPolicy;
}): Promise<RecallEngine> {
  const { index, lexical } = await loadRecallIndex(o.db, o.embedder, o.snapshots);
  const deps: RecallDeps = {
    db: o.db, index, analyzer: createAnalyzer(), params: { ...DEFAULT_RECALL_PARAMS, ...o.params }, embedder: o.embedder,
    clock: o.clock, domainExists: o.domainExists, graphEnabled: o.graphEnabled, trace: o.trace, crossEncoder: o.crossEncoder,
  };
  return {
    index, lexicalSource: lexical, get params() { return deps.params; }, set params(p) { deps.params = p; },
    async recall(body, opts = {}) {
      const q = validateQueryDoc(body, opts.sourceParam, o.injectionPolicy);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const budget = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new MemoryError("recall_unavailable", "recall exceeded its search budget")), o.budgetMs);
      });
      try {
        return await Promise.race([runRecall(deps, q, { piiRead: opts.piiRead ?? false }), budget]);
      } catch (e) {
        // SPEC §7: a failed search task is 503 recall_unavailable; client errors keep their codes.
        if (isMemoryError(e)) throw e;
        throw new MemoryError("recall_unavailable", "recall failed");
      } finally {
        clearTimeout(timer);
      }
    },
    setGraphLeg: (leg) => void (deps.graphLeg = leg),
    setTemporalFilter: (f) => void (deps.temporal = f),
    async persist() {
      if (!o.snapshots) return;
      index.lexical.changeCounter = await changeKey(o.db);
      await o.snapshots.save(index.lexical.toJSON());
    },
  };
}
