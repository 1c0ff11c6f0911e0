/**
 * The in-memory retrieval indexes kept in step with writes (SPEC §1 items
 * 1 and 3): an exact-scan vector matrix loaded from the libSQL `F32_BLOB`
 * column (the source of truth), the lexical BM25 index, per-chunk filter
 * labels and per-domain centroids for routing (SPEC §4.1 Routing). The
 * lexical leg is Orama with the Cairn BM25 components (the design card's
 * choice; src/lexical/README.md "Decision" has the figures that allow it).
 */
import type { Chunk } from "../core/types.ts";
import type { IndexHooks } from "../ingest/ports.ts";
import { createOramaLexicalIndex } from "../lexical/orama-lexical-index.ts";
import type { LexicalIndex } from "../lexical/lexical-index.ts";
import { createAnalyzer } from "../lexical/analyzer.ts";
import { type ExactVectors, MatrixIndex } from "../vector/matrix-index.ts";
import { actorLabelOf, ActorLabels } from "./actor-labels.ts";
import { type ChunkLabels, LabelTable } from "./label-table.ts";

export type { ChunkLabels } from "./label-table.ts";

/** Vectors, lexical postings, labels and domain centroids. */
export class RecallIndex implements IndexHooks {
  readonly vectors: MatrixIndex | undefined;
  lexical: LexicalIndex;
  /** Filter labels by chunk id, in typed arrays (issue 25; `Map`-like: get/set/delete/has/size). */
  readonly labels: LabelTable;
  /** Speaker/owner and date labels (speaker- and date-aware rerank features). */
  readonly actors = new ActorLabels(createAnalyzer());
  private sums = new Map<string, { sum: Float64Array; n: number }>();
  private centroidCache: Map<string, Float32Array> | undefined;

  /**
   * `expected`: rows to reserve up front (boot knows the chunk count; growing by doubling costs a transient copy).
   * `exact`: where the stored vectors can be read back exactly; the matrix then holds int8 rows (issue 25).
   * `int8` without `exact`: int8 rows with dequantised scores (issue 20, `CAIRN_NODE_VECTOR_ROWS=int8` on a server node).
   */
  constructor(dim: number | undefined, lexical: LexicalIndex = createOramaLexicalIndex(), expected = 1024, exact?: ExactVectors, int8 = false) {
    this.vectors = dim ? new MatrixIndex(dim, Math.max(1024, expected), exact, int8 || exact !== undefined) : undefined;
    this.labels = new LabelTable(Math.max(1024, expected));
    this.lexical = lexical;
  }

  /** Indexes a committed chunk (and its vector when one was computed). */
  added(chunk: Chunk, vector?: Float32Array): void {
    this.labels.set(chunk.id, labelsOf(chunk));
    this.actors.set(chunk.id, actorLabelOf(chunk.meta));
    if (!this.lexical.has(chunk.id)) this.lexical.add({ id: chunk.id, title: chunk.title, content: chunk.content });
    if (vector && this.vectors) this.addVector(chunk.id, chunk.domain, vector);
  }

  /** Adds a vector loaded at boot (labels must already be set). */
  addVector(id: number, domain: string, vector: Float32Array): void {
    if (!this.vectors || this.vectors.has(id)) return;
    this.vectors.add(id, vector);
    this.#count(this.#domainSum(domain, vector.length), id, vector);
    this.centroidCache = undefined;
  }

  /**
   * Adds a page of vectors loaded at boot: row i of `data` (`dim` floats) is the vector of `ids[i]`; rows of
   * chunks without labels are skipped. The same rows and the same centroid sums, in the same order, as
   * `addVector` per row, without a labels object and a map round trip per row (issue 25: boot at 200k).
   */
  addVectorPage(ids: readonly number[], data: Float32Array): void {
    const vectors = this.vectors;
    if (!vectors) return;
    const dim = vectors.dim;
    let domain: string | undefined;
    let s: { sum: Float64Array; n: number } | undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const d = this.labels.domainOf(id);
      if (d === undefined || vectors.has(id)) continue;
      const at = i * dim;
      const row = data.subarray(at, at + dim);
      vectors.add(id, row);
      if (s === undefined || d !== domain) s = this.#domainSum((domain = d), dim);
      this.#count(s, id, row);
    }
    this.centroidCache = undefined;
  }

  /** Adds a page of int8 rows from a node's boot cache (an int8 index only; rows of unlabelled chunks are skipped). */
  addQuantisedPage(ids: readonly number[], data: Int8Array, scales: Float32Array): void {
    const vectors = this.vectors;
    if (!vectors) return;
    const dim = vectors.dim;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      const d = this.labels.domainOf(id);
      if (d === undefined || vectors.has(id)) continue;
      vectors.addQuantised(id, data.subarray(i * dim, (i + 1) * dim), scales[i]);
      this.#count(this.#domainSum(d, dim), id);
    }
    this.centroidCache = undefined;
  }

  /** A domain's running vector sum (for its centroid), created on first use. */
  #domainSum(domain: string, dim: number): { sum: Float64Array; n: number } {
    let s = this.sums.get(domain);
    if (s === undefined) this.sums.set(domain, (s = { sum: new Float64Array(dim), n: 0 }));
    return s;
  }

  /**
   * Counts `id`'s row into a domain sum as `removed` will subtract it (no drift on churn): an approximate matrix's
   * stored, dequantised row; else the vector given, which is what the matrix (or its exact source) returns.
   */
  #count(s: { sum: Float64Array; n: number }, id: number, given?: ArrayLike<number>): void {
    if (this.vectors!.approximate || given === undefined) this.vectors!.addRowTo(id, s.sum);
    else for (let k = 0; k < given.length; k++) s.sum[k] += given[k];
    s.n++;
  }

  /** Forgets a deleted chunk everywhere. */
  removed(id: number): void {
    const l = this.labels.get(id);
    const v = this.vectors?.get(id);
    if (l && v) {
      const s = this.sums.get(l.domain);
      if (s) {
        for (let i = 0; i < v.length; i++) s.sum[i] -= v[i];
        s.n--;
        if (s.n <= 0) this.sums.delete(l.domain);
      }
      this.centroidCache = undefined;
    }
    this.labels.delete(id);
    this.actors.delete(id);
    this.lexical.remove(id);
    this.vectors?.remove(id);
  }

  /** Updates labels (e.g. a quarantine release). */
  changed(chunk: Chunk): void {
    this.labels.set(chunk.id, labelsOf(chunk));
    this.actors.set(chunk.id, actorLabelOf(chunk.meta));
  }

  /** Normalised centroid vectors of each domain that has vectors. */
  centroids(): Map<string, Float32Array> {
    if (this.centroidCache) return this.centroidCache;
    const out = new Map<string, Float32Array>();
    for (const [domain, { sum, n }] of [...this.sums.entries()].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (n <= 0) continue;
      let norm = 0;
      for (let i = 0; i < sum.length; i++) norm += sum[i] * sum[i];
      norm = Math.sqrt(norm);
      if (norm === 0) continue;
      const c = new Float32Array(sum.length);
      for (let i = 0; i < sum.length; i++) c[i] = sum[i] / norm;
      out.set(domain, c);
    }
    this.centroidCache = out;
    return out;
  }

  /** Number of indexed chunks. */
  get size(): number {
    return this.labels.size;
  }
}

/** Labels of a chunk. */
export function labelsOf(c: Pick<Chunk, "domain" | "source" | "createdAt" | "flagged" | "expiresAt">): ChunkLabels {
  const l: ChunkLabels = { domain: c.domain, source: c.source, createdMs: Date.parse(c.createdAt), flagged: c.flagged };
  if (c.expiresAt !== undefined) {
    const ms = Date.parse(c.expiresAt);
    if (!Number.isNaN(ms)) l.expiresMs = ms;
  }
  return l;
}
