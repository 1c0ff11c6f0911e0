/**
 * The recall engine the composition root builds: the in-memory index kept
 * in step with writes, the 8 s search budget (SPEC §8 → 503
 * `recall_unavailable`, checked by the CPU-bound stages themselves), snapshot persistence of the lexical leg, and the
 * seams later features fill (graph leg, temporal filter).
 */
import { createDeadline, type WorkScope } from "../core/deadline.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import type { Embedder } from "../embed/embedder.ts";
import { queryAction, type InjectionPolicy } from "../hygiene/injection-policy.ts";
import { screen } from "../hygiene/screen.ts";
import { type InjectionClassifier, withClassifier } from "../screen-model/classifier.ts";
import { createAnalyzer } from "../lexical/analyzer.ts";
import type { Db } from "../store/db.ts";
import { annSearch, ensureVectorAnnIndex } from "../store/vectors.ts";
import { changeKey, loadRecallIndex, type LoadedRecallIndex, type SnapshotStore } from "./load-index.ts";
import { encodeNodeSection } from "./node-cache.ts";
import { changeAt, storeIdentity } from "../store/store-identity.ts";
import type { CrossScorer, GraphLeg, TemporalFilter } from "./ports.ts";
import { validateQueryDoc } from "./query-doc.ts";
import { RecallIndex } from "./recall-index.ts";
import { DEFAULT_RECALL_PARAMS, type RecallParams } from "./recall-params.ts";
import type { RecallInput, RecallReply } from "./recall-schema.ts";
import { runRecall, type RecallDeps } from "./recall-service.ts";

/** Options of one recall call from a binding. */
export interface RecallCallOptions {
  /** The principal holds `pii:read` (SPEC §1 read seam). */
  piiRead?: boolean;
  /** `?source=` query parameter (SPEC §4.1). */
  sourceParam?: string;
  /** Extra candidate filter every leg applies before ranking (UMP scope and visibility, SPEC §1 Trust rules). */
  filter?: (chunkId: number) => boolean;
}

/** The engine. */
export interface RecallEngine {
  readonly index: RecallIndex;
  /** How the lexical leg was obtained at boot; `none`: a write-only session's engine holds no index (`indexes: false`). */
  readonly lexicalSource: "snapshot" | "rebuilt" | "cache" | "none";
  /** A server node's boot cache: used, or why it was refused (issue 20; absent without a cache file). */
  readonly bootCache?: LoadedRecallIndex["cache"];
  /** How the vector leg searches (`none` without an embedder). */
  readonly vectorLeg: "scan" | "diskann" | "none";
  /** One recall: the body is validated with `RecallBody` (untyped callers are checked the same way). */
  recall(body: RecallInput, opts?: RecallCallOptions): Promise<RecallReply>;
  setGraphLeg(leg: GraphLeg): void;
  setTemporalFilter(f: TemporalFilter): void;
  /** Tuning seam only (scripts/cv-recall.ts): observe each search's reranked head and its features. */
  setProbe(probe: RecallDeps["probe"]): void;
  /** Saves the lexical snapshot (on shutdown); a server node's cache also records `cursor`, the last change it holds. */
  persist(cursor?: number): Promise<void>;
  params: RecallParams;
}

/** Builds the engine (loads indexes from the store). */
export async function createRecallEngine(o: {
  db: Db; embedder?: Embedder; snapshots?: SnapshotStore; clock: () => Date; budgetMs: number; graphEnabled: boolean;
  domainExists(name: string): Promise<boolean>; trace?: RecallDeps["trace"]; params?: Partial<RecallParams>;
  crossEncoder?: CrossScorer;
  injectionPolicy?: InjectionPolicy;
  /** Optional local injection classifier: the query is refused when rules plus classifier reach a refusing verdict. */
  classifier?: InjectionClassifier;
  vectorIndex?: "auto" | "scan" | "diskann"; vectorScanMax?: number; remote?: boolean;
  /** A server node's matrix rows (`CAIRN_NODE_VECTOR_ROWS`): float32 (exact scores) or int8 (a quarter of the memory). */
  nodeVectorRows?: "float32" | "int8";
  /** Where the running request's deadline is found: the search budget is a shorter one inside it (SPEC §7, §8). */
  work?: WorkScope;
  /**
   * false: a write-only session (`cairn import`, docs/vault.md "Chat history"): nothing is loaded from the store, the
   * empty index is never fed, recall is refused and nothing is persisted. Default true.
   */
  indexes?: boolean;
}): Promise<RecallEngine> {
  if (o.indexes === false) return writeOnlyEngine(o.embedder?.dim);
  const { index, lexical, cache } = await loadRecallIndex(o.db, o.embedder, o.snapshots, { nodeVectorRows: o.nodeVectorRows });
  // The vector leg: an exact scan of the in-memory matrix, or libSQL's DiskANN index above the documented size
  // (docs/benchmarks.md "Vector index": its recall@10 against the exact scan is measured there). A remote server no longer implies
  // DiskANN (issue 20): every node holds the matrix anyway, and maintaining the index was ~90% of sqld's CPU in a
  // batched ingest (docs/scale-out.md "Several nodes over one libSQL server").
  const mode = o.vectorIndex ?? "auto";
  // Multi-database mode keeps the exact in-memory scan: an engine-side vector index lives in one database only.
  const useAnn = index.vectors !== undefined && o.db.router === undefined &&
    (mode === "diskann" || (mode === "auto" && index.vectors.size > (o.vectorScanMax ?? 200_000)));
  if (useAnn) await ensureVectorAnnIndex(o.db.client);
  const deps: RecallDeps = {
    db: o.db, index, analyzer: createAnalyzer(), params: { ...DEFAULT_RECALL_PARAMS, ...o.params }, embedder: o.embedder,
    clock: o.clock, domainExists: o.domainExists, graphEnabled: o.graphEnabled, trace: o.trace, crossEncoder: o.crossEncoder,
    ann: useAnn ? (vec, k) => annSearch(o.db.client, vec, k) : undefined,
  };
  return {
    index, lexicalSource: lexical, bootCache: cache, vectorLeg: !index.vectors ? "none" : useAnn ? "diskann" : "scan", get params() { return deps.params; }, set params(p) { deps.params = p; },
    async recall(body, opts = {}) {
      const q = validateQueryDoc(body, opts.sourceParam, o.injectionPolicy);
      if (o.classifier) {
        // The rules already ran in validateQueryDoc; the classifier can only add (a failure leaves the rules' answer).
        const [p] = (await o.classifier.score([q.query]).catch(() => undefined)) ?? [0];
        const merged = withClassifier(screen(q.query), p ?? 0);
        if (queryAction(merged.verdict, o.injectionPolicy ?? "quarantine", merged.reasons) === "reject") {
          throw new MemoryError("query_rejected", "query matches a blocked prompt-injection pattern");
        }
      }
      // SPEC §7: the search budget. Its stages check it (a clock read: the legs are CPU-bound and never wait on a
      // timer), and the timer answers a stage that awaits a port that never answers (a hung cross-encoder).
      const budgetError = () => new MemoryError("recall_unavailable", "recall exceeded its search budget");
      const request = o.work?.current();
      const deadline = request ? request.within(o.budgetMs, budgetError) : createDeadline({ ms: o.budgetMs, error: budgetError, yieldNow: o.work?.yieldNow });
      const budget = new Promise<never>((_, reject) => deadline.onExpire(reject));
      budget.catch(() => undefined);
      const timer = setTimeout(() => deadline.expire(), o.budgetMs);
      try {
        // runRecall builds the SPEC §4.1 reply field by field (format-hits.ts); RecallReplySchema documents that shape.
        return await Promise.race([runRecall(deps, q, { piiRead: opts.piiRead ?? false, filter: opts.filter, deadline }), budget]) as RecallReply;
      } catch (e) {
        // SPEC §7: a failed search task is 503 recall_unavailable; client errors keep their codes.
        if (isMemoryError(e)) throw e;
        throw new MemoryError("recall_unavailable", "recall failed");
      } finally {
        clearTimeout(timer);
        deadline.finish();
      }
    },
    setGraphLeg: (leg) => void (deps.graphLeg = leg),
    setTemporalFilter: (f) => void (deps.temporal = f),
    setProbe: (probe) => void (deps.probe = probe),
    async persist(cursor) {
      if (!o.snapshots) return;
      index.lexical.changeCounter = await changeKey(o.db);
      // A store that writes the file container takes bytes; any other gets plain JSON (base64 fields).
      const binary = o.snapshots.binary === true;
      const lexical = () => (binary ? index.lexical.toSnapshot() : index.lexical.toJSON());
      if (o.db.local || o.db.router !== undefined) return await o.snapshots.save(lexical());
      // A server node (issue 20): the indexes as of `cursor`, keyed by the store's identity and that change's row.
      if (cursor === undefined) return;
      const at = cursor > 0 ? await changeAt(o.db.client, cursor) : { chunkId: 0, atMs: 0 };
      if (at === undefined) return;
      const key = { storeId: await storeIdentity(o.db.client), cursor, cursorChunk: at.chunkId, cursorAtMs: at.atMs, embedder: o.embedder ? { id: o.embedder.id, dim: o.embedder.dim } : null };
      await o.snapshots.save({ ...lexical(), node: encodeNodeSection(key, index.vectors, binary) });
    },
  };
}

/**
 * The engine of a write-only session: a one-shot writer needs no recall index (a running server follows its writes
 * through the change feed, a later boot builds from the store), and keeping one grew with every chunk written:
 * a 100 MB chat import held ~1 GB (docs/vault.md "Chat history"). Its index stays empty (no hook feeds it).
 */
function writeOnlyEngine(dim: number | undefined): RecallEngine {
  let params = { ...DEFAULT_RECALL_PARAMS };
  return {
    index: new RecallIndex(dim, undefined, 0), lexicalSource: "none", vectorLeg: "none",
    get params() { return params; }, set params(p) { params = p; },
    recall: () => Promise.reject(new MemoryError("recall_unavailable", "this process only writes (cairn import): recall is served by cairn serve or cairn query")),
    setGraphLeg: () => undefined, setTemporalFilter: () => undefined, setProbe: () => undefined,
    persist: () => Promise.resolve(),
  };
}
