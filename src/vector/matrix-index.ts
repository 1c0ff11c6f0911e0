/**
 * An in-memory, exact-scan vector index (SPEC §1 and §2: vector KNN leg of
 * recall). All rows live in one growing Float32Array; removal moves the last
 * row into the freed slot. Search scores every row by dot product (a cosine
 * for the L2-normalised vectors an `Embedder` returns) and keeps the top `k`
 * with a heap; ties go to the smaller id, so results never depend on insertion
 * or removal order. At 50k × 100-d one query scans in a few milliseconds
 * (`scripts/bench-vector.ts`), inside the desktop envelope of SPEC §8.
 *
 * Issue 25 (RSS): given an `ExactVectors` source (the stored F32_BLOBs, read on
 * the store's query-only connection), rows are held as int8 with one float32
 * scale per row — a quarter of the memory — and every score returned is still
 * the exact float32 one: `scoreIds` scores the stored vectors, and `search`
 * ranks by the int8 rows, then rescores a head from the stored vectors and
 * widens it until the error bound proves no row outside could enter the top k.
 *
 * Issue 20 (a server node's RSS at a million chunks): `MatrixIndex.int8` keeps int8 rows with no exact source —
 * the stored vectors are on the libSQL server, a round trip away, and `ExactVectors` is synchronous. Scores are
 * then the dequantised dot products (each off by at most ‖q‖₁ · scale / 2 from the float32 one): every node
 * quantises the same vectors the same way, so two nodes still answer alike, but not bit-identically to a float32
 * node. Opt-in (`CAIRN_NODE_VECTOR_ROWS=int8`), for the memory.
 */

import { MemoryError } from "../core/errors.ts";
import { type ScoredId, TopK } from "./top-k.ts";

export type { ScoredId } from "./top-k.ts";

/** The exact vectors of ids (ids without one are absent from the map); synchronous, read where they are stored. */
export interface ExactVectors {
  read(ids: readonly number[]): Map<number, Float32Array>;
}

/** Exact-scan vector index keyed by integer entry ids. */
export class MatrixIndex {
  /** Length of every stored vector. */
  readonly dim: number;
  /** float32 rows (no exact source) or int8 rows (with one). */
  #data: Float32Array | Int8Array;
  /** Per-row dequantisation scale of int8 rows (x ≈ scale · q). */
  #scale: Float32Array;
  #ids: number[] = [];
  readonly #slots = new Map<number, number>();
  readonly #exact: ExactVectors | undefined;
  /** int8 rows (with or without an exact source). */
  readonly #q8: boolean;

  /**
   * An empty index for `dim`-dimensional vectors, with room for `capacity` rows before growing. With `exact`,
   * rows are kept as int8 and every returned score is computed from `exact` (see the file comment).
   */
  constructor(dim: number, capacity = 1024, exact?: ExactVectors, int8 = exact !== undefined) {
    if (!Number.isInteger(dim) || dim <= 0) throw new MemoryError("internal_error", `Vector dimension ${dim} is invalid`);
    this.dim = dim;
    this.#exact = exact;
    this.#q8 = int8 || exact !== undefined;
    const rows = Math.max(1, capacity);
    this.#data = this.#q8 ? new Int8Array(dim * rows) : new Float32Array(dim * rows);
    this.#scale = new Float32Array(this.#q8 ? rows : 0);
  }

  /** An index of int8 rows without an exact source: a quarter of the memory, dequantised scores (file comment). */
  static int8(dim: number, capacity = 1024): MatrixIndex {
    return new MatrixIndex(dim, capacity, undefined, true);
  }

  /** True when scores are dequantised int8 dot products rather than exact float32 ones. */
  get approximate(): boolean {
    return this.#q8 && this.#exact === undefined;
  }

  /** Bytes per stored vector component: 1 (int8 rows over an exact source) or 4. */
  get bytesPerComponent(): number {
    return this.#data.BYTES_PER_ELEMENT;
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
    const slot = this.#slotFor(id);
    if (this.#q8) this.#quantise(slot, vec);
    else this.#data.set(vec, slot * this.dim);
  }

  /** Stores (or replaces) `id` from an int8 row and its scale as `int8Rows` gave them (a boot cache; int8 indexes only). */
  addQuantised(id: number, row: Int8Array, scale: number): void {
    if (!this.#q8 || row.length !== this.dim) throw new MemoryError("internal_error", "addQuantised needs an int8 index and a full row");
    const slot = this.#slotFor(id);
    (this.#data as Int8Array).set(row, slot * this.dim);
    this.#scale[slot] = scale;
  }

  /** The int8 rows and their scales in slot order, as views (approximate indexes only: a server node's boot cache). */
  int8Rows(): { ids: readonly number[]; data: Int8Array; scales: Float32Array } | undefined {
    if (!this.approximate) return undefined;
    return { ids: this.#ids, data: (this.#data as Int8Array).subarray(0, this.#ids.length * this.dim), scales: this.#scale.subarray(0, this.#ids.length) };
  }

  /** The stored rows in slot order (`ids[i]` owns row i), as views; undefined for int8 rows (issue 20: a node's boot cache). */
  floatRows(): { ids: readonly number[]; data: Float32Array } | undefined {
    if (this.#q8) return undefined;
    return { ids: this.#ids, data: (this.#data as Float32Array).subarray(0, this.#ids.length * this.dim) };
  }

  /** Drops the vector of `id`; returns false when there was none. */
  remove(id: number): boolean {
    const slot = this.#slots.get(id);
    if (slot === undefined) return false;
    const last = this.#ids.length - 1;
    if (slot !== last) {
      // Swap-remove: the last row fills the hole so the matrix stays dense.
      this.#data.copyWithin(slot * this.dim, last * this.dim, (last + 1) * this.dim);
      if (this.#q8) this.#scale[slot] = this.#scale[last];
      const moved = this.#ids[last];
      this.#ids[slot] = moved;
      this.#slots.set(moved, slot);
    }
    this.#ids.pop();
    this.#slots.delete(id);
    return true;
  }

  /** A copy of the stored vector of `id` (int8 rows: the exact one when its source still has it, else dequantised), or undefined. */
  get(id: number): Float32Array | undefined {
    const slot = this.#slots.get(id);
    if (slot === undefined) return undefined;
    if (!this.#q8) return (this.#data as Float32Array).slice(slot * this.dim, (slot + 1) * this.dim);
    const exact = this.#exact?.read([id]).get(id);
    if (exact && exact.length === this.dim) return exact;
    const out = new Float32Array(this.dim);
    for (let d = 0, base = slot * this.dim; d < this.dim; d++) out[d] = this.#scale[slot] * this.#data[base + d];
    return out;
  }

  /** Adds the stored row of `id` (dequantised for int8 rows, as `get` without an exact source) into `sum`, without a copy. */
  addRowTo(id: number, sum: Float64Array): void {
    const slot = this.#slots.get(id);
    if (slot === undefined) return;
    const base = slot * this.dim;
    const scale = this.#q8 ? this.#scale[slot] : 1;
    // Rounded to float32 as `get` returns them, so adding this row and later subtracting `get(id)` cancel exactly.
    for (let d = 0; d < this.dim; d++) sum[d] += Math.fround(scale * this.#data[base + d]);
  }

  /** The `k` ids whose vectors have the highest dot product with `query`, best first (ties: id ascending); `filter` vetoes ids. */
  search(query: ArrayLike<number>, k: number, filter?: (id: number) => boolean): ScoredId[] {
    this.#checkDim(query);
    const dim = this.dim;
    const data = this.#data;
    const ids = this.#ids;
    const q = Float32Array.from(query);
    if (k <= 0) return [];
    if (this.#exact) return this.#searchQuantised(q, k, filter);
    const scales = this.#q8 ? this.#scale : undefined;
    const top = new TopK(k);
    for (let slot = 0, base = 0; slot < ids.length; slot++, base += dim) {
      const id = ids[slot];
      const dot = scales ? scales[slot] * dotAt(q, data, base, dim) : dotAt(q, data, base, dim);
      const score = Number.isNaN(dot) ? -Infinity : dot;
      // The filter (scope, labels, quarantine) runs only for rows that would enter the top k.
      if (!top.accepts(id, score) || (filter !== undefined && !filter(id))) continue;
      top.push(id, score);
    }
    return top.sorted();
  }

  /**
   * Dot products of `query` with the vectors of `ids` only (ids without a vector are skipped), best first
   * (ties: id ascending). The recall pipeline scores the lexical candidates this way instead of scanning
   * the whole matrix when the lexical leg found something (docs/recall.md "The pipeline").
   */
  scoreIds(query: ArrayLike<number>, ids: readonly number[]): ScoredId[] {
    this.#checkDim(query);
    const dim = this.dim;
    const data = this.#data;
    const out: ScoredId[] = [];
    if (this.#exact) {
      const exact = this.#exact.read(ids.filter((id) => this.#slots.has(id)));
      for (const id of ids) {
        const v = exact.get(id);
        if (v === undefined || v.length !== dim || !this.#slots.has(id)) continue;
        let s = 0;
        for (let d = 0; d < dim; d++) s += query[d] * v[d];
        out.push({ id, score: Number.isNaN(s) ? -Infinity : s });
      }
      return out.sort((a, b) => b.score - a.score || a.id - b.id);
    }
    for (const id of ids) {
      const slot = this.#slots.get(id);
      if (slot === undefined) continue;
      let s = 0;
      for (let d = 0, base = slot * dim; d < dim; d++) s += query[d] * data[base + d];
      if (this.#q8) s *= this.#scale[slot];
      out.push({ id, score: Number.isNaN(s) ? -Infinity : s });
    }
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  /** The slot of `id`, a new one at the end (growing the matrix) when it has none. */
  #slotFor(id: number): number {
    let slot = this.#slots.get(id);
    if (slot === undefined) {
      slot = this.#ids.length;
      if ((slot + 1) * this.dim > this.#data.length) this.#grow();
      this.#ids.push(id);
      this.#slots.set(id, slot);
    }
    return slot;
  }

  #checkDim(vec: ArrayLike<number>): void {
    if (vec.length !== this.dim) {
      throw new MemoryError("internal_error", `Vector has ${vec.length} dimensions, the index expects ${this.dim}`);
    }
  }

  #grow(): void {
    const length = Math.max(this.#data.length * 2, this.dim);
    const next = this.#q8 ? new Int8Array(length) : new Float32Array(length);
    next.set(this.#data);
    this.#data = next;
    if (this.#q8) {
      const scale = new Float32Array(length / this.dim);
      scale.set(this.#scale);
      this.#scale = scale;
    }
  }

  /** Stores `vec` at `slot` as int8 with a per-row scale (max |x| / 127); a non-finite row gets scale NaN. */
  #quantise(slot: number, vec: ArrayLike<number>): void {
    let max = 0;
    for (let d = 0; d < this.dim; d++) max = Math.max(max, Math.abs(vec[d]));
    const data = this.#data as Int8Array;
    const base = slot * this.dim;
    if (!Number.isFinite(max)) {
      this.#scale[slot] = NaN;
      data.fill(0, base, base + this.dim);
      return;
    }
    const scale = Math.fround(max / 127);
    this.#scale[slot] = scale;
    for (let d = 0; d < this.dim; d++) data[base + d] = scale === 0 ? 0 : Math.round(vec[d] / scale);
  }

  /**
   * Top k over int8 rows, exact scores. The int8 score of a row differs from its exact dot product by at most
   * `bound` = ‖q‖₁ · max scale / 2 (each component is off by at most half its row's scale). The best `head` rows
   * by int8 score are rescored exactly; any row left out scores at most (its int8 score + bound), so once the
   * k-th exact score reaches the best left-out int8 score + bound the result is the exact top k. Otherwise every
   * row that could still enter is rescored too (rare: the head is 2k + 64 rows).
   */
  #searchQuantised(q: Float32Array, k: number, filter?: (id: number) => boolean): ScoredId[] {
    const dim = this.dim;
    const data = this.#data as Int8Array;
    const scales = this.#scale;
    const ids = this.#ids;
    let qL1 = 0, maxScale = 0;
    for (let d = 0; d < dim; d++) qL1 += Math.abs(q[d]);
    for (let slot = 0; slot < ids.length; slot++) if (scales[slot] > maxScale) maxScale = scales[slot];
    const bound = qL1 * maxScale / 2 + 1e-9;
    const approx = new Float64Array(ids.length);
    const head = new TopK(2 * k + 64);
    for (let slot = 0, base = 0; slot < ids.length; slot++, base += dim) {
      // A non-finite row (scale NaN) always reaches the exact rescoring, where it ranks last as before.
      const score = Number.isNaN(scales[slot]) ? Infinity : scales[slot] * dotAt(q, data, base, dim);
      approx[slot] = score;
      const id = ids[slot];
      if (!head.accepts(id, score) || (filter !== undefined && !filter(id))) continue;
      head.push(id, score);
    }
    const headHits = head.sorted();
    const exact = this.#rescore(q, headHits.map((h) => h.id));
    const kth = exact.length >= k ? exact[k - 1].score : -Infinity;
    const leftOut = headHits.length === 2 * k + 64 ? headHits[headHits.length - 1].score : -Infinity;
    if (leftOut !== -Infinity && leftOut + bound >= kth) {
      // Not proven: rescore every row whose int8 score leaves room to enter.
      const inHead = new Set(headHits.map((h) => h.id));
      const more: number[] = [];
      for (let slot = 0; slot < ids.length; slot++) {
        if (approx[slot] + bound >= kth && !inHead.has(ids[slot]) && (filter === undefined || filter(ids[slot]))) more.push(ids[slot]);
      }
      exact.push(...this.#rescore(q, more));
      exact.sort((a, b) => b.score - a.score || a.id - b.id);
    }
    return exact.slice(0, k);
  }

  /** Exact scores of `ids` from the exact source (same arithmetic as the float32 scan), best first. */
  #rescore(q: Float32Array, ids: readonly number[]): ScoredId[] {
    const dim = this.dim;
    const vecs = this.#exact!.read(ids);
    const out: ScoredId[] = [];
    for (const id of ids) {
      const v = vecs.get(id);
      if (v === undefined || v.length !== dim || !this.#slots.has(id)) continue;
      const dot = dotAt(q, v, 0, dim);
      out.push({ id, score: Number.isNaN(dot) ? -Infinity : dot });
    }
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }
}

/**
 * The dot product of `q` with the row of `data` starting at `base`, in four running sums. Every scan (float32, int8)
 * and the exact rescoring use this one loop, so a rescored float32 score is bit-identical to the float32 scan's.
 */
function dotAt(q: Float32Array, data: Float32Array | Int8Array, base: number, dim: number): number {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  let d = 0;
  for (; d + 3 < dim; d += 4) {
    s0 += q[d] * data[base + d];
    s1 += q[d + 1] * data[base + d + 1];
    s2 += q[d + 2] * data[base + d + 2];
    s3 += q[d + 3] * data[base + d + 3];
  }
  for (; d < dim; d++) s0 += q[d] * data[base + d];
  return s0 + s1 + s2 + s3;
}
