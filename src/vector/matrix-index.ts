/**
 * An in-memory, exact-scan vector index (SPEC §1 and §2: vector KNN leg of
 * recall). All rows live in one growing Float32Array; removal moves the last
 * row into the freed slot. Search scores every row by dot product (a cosine
 * for the L2-normalised vectors an `Embedder` returns) and keeps the top `k`
 * with a heap; ties go to the smaller id, so results never depend on insertion
 * or removal order. At 50k × 100-d one query scans in a few milliseconds
 * (`scripts/bench-vector.ts`), inside the desktop envelope of SPEC §8.
 */

import { MemoryError } from "../core/errors.ts";
import { type ScoredId, TopK } from "./top-k.ts";

export type { ScoredId } from "./top-k.ts";

/** Exact-scan vector index keyed by integer entry ids. */
export class MatrixIndex {
  /** Length of every stored vector. */
  readonly dim: number;
  #data: Float32Array;
  #ids: number[] = [];
  readonly #slots = new Map<number, number>();

  /** An empty index for `dim`-dimensional vectors, with room for `capacity` rows before growing. */
  constructor(dim: number, capacity = 1024) {
    if (!Number.isInteger(dim) || dim <= 0) throw new MemoryError("internal_error", `Vector dimension ${dim} is invalid`);
    this.dim = dim;
    this.#data = new Float32Array(dim * Math.max(1, capacity));
  }

  /** Number of stored vectors. */
  get size(): number {
    return this.#ids.length;
  }

  /** True when `id` has a vector. */
  has(id: number): boolean {
    return this.#slots.has(id);
  }

  /** Stores (or replaces) the vector of `id`; the vector is copied. */
  add(id: number, vec: ArrayLike<number>): void {
    if (!Number.isSafeInteger(id)) throw new MemoryError("internal_error", `Vector id ${id} is not an integer`);
    this.#checkDim(vec);
    let slot = this.#slots.get(id);
    if (slot === undefined) {
      slot = this.#ids.length;
      if ((slot + 1) * this.dim > this.#data.length) this.#grow();
      this.#ids.push(id);
      this.#slots.set(id, slot);
    }
    this.#data.set(vec, slot * this.dim);
  }

  /** Drops the vector of `id`; returns false when there was none. */
  remove(id: number): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined) return false;
    const last = this.#ids.length - 1;
    if (slot !== last) {
      // Swap-remove: the last row fills the hole so the matrix stays dense.
      this.#data.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      const moved = this.#ids[last];
      this.#ids[slot] = moved;
      this.#slots.set(moved, slot);
    }
    this.#ids.pop();
    this.#slots.delete(id);
    return true;
  }

  /** A copy of the stored vector of `id`, or undefined. */
  get(id: number): Float32Array | undefined {
    const slot = this.#slots.get(id);
    return slot === undefined ? undefined : this.#data.slice(slot * this.dim, (slot + 1) * this.dim);
  }

  /** The `k` ids whose vectors have the highest dot product with `query`, best first (ties: id ascending); `filter` vetoes ids. */
  search(query: ArrayLike<number>, k: number, filter?: (id: number) => boolean): ScoredId[] {
    this.#checkDim(query);
    const dim = this.dim;
    const data = this.#data;
    const ids = this.#ids;
    const q = Float32Array.from(query);
    const top = new TopK(k);
    if (k <= 0) return [];
    for (let slot = 0, base = 0; slot < ids.length; slot++, base += dim) {
      const id = ids[slot];
      let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
      let d = 0;
      for (; d + 3 < dim; d += 4) {
        s0 += q[d] * data[base + d];
        s1 += q[d + 1] * data[base + d + 1];
        s2 += q[d + 2] * data[base + d + 2];
        s3 += q[d + 3] * data[base + d + 3];
      }
      for (; d < dim; d++) s0 += q[d] * data[base + d];
      const score = Number.isNaN(s0 + s1 + s2 + s3) ? -Infinity : s0 + s1 + s2 + s3;
      // The filter (scope, labels, quarantine) runs only for rows that would enter the top k.
      if (!top.accepts(id, score) || (filter !== undefined && !filter(id))) continue;
      top.push(id, score);
    }
    return top.sorted();
  }

  /**
   * Dot products of `query` with the vectors of `ids` only (ids without a vector are skipped), best first
   * (ties: id ascending). The recall pipeline scores the lexical candidates this way instead of scanning
   * the whole matrix when the lexical leg found something (README "Recall").
   */
  scoreIds(query: ArrayLike<number>, ids: readonly number[]): ScoredId[] {
    this.#checkDim(query);
    const dim = this.dim;
    const data = this.#data;
    const out: ScoredId[] = [];
    for (const id of ids) {
      const slot = this.#slots.get(id);
      if (slot === undefined) continue;
      let s = 0;
      for (let d = 0, base = slot * dim; d < dim; d++) s += query[d] * data[base + d];
      out.push({ id, score: Number.isNaN(s) ? -Infinity : s });
    }
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  #checkDim(vec: ArrayLike<number>): void {
    if (vec.length !== this.dim) {
      throw new MemoryError("internal_error", `Vector has ${vec.length} dimensions, the index expects ${this.dim}`);
    }
  }

  #grow(): void {
    const next = new Float32Array(Math.max(this.#data.length * 2, this.dim));
    next.set(this.#data);
    this.#data = next;
  }
}
