/**
 * Per-chunk filter labels (SPEC §2.1: domain, source, created time,
 * quarantine flag, expiry) in typed arrays indexed by chunk id, with the
 * `Map`-like face recall has always used (`get`/`set`/`delete`/`has`/`size`).
 * Issue 25: a `Map<number, {…}>` cost ~140 bytes a chunk (entry, object,
 * boxed numbers, the created-at string); this costs 22, so at 200,000 chunks
 * ~4 MB instead of ~28 MB. Chunk ids are SQLite rowids, dense from 1; an id
 * far beyond the table (more than 4× its size past the end) is kept in a
 * small overflow map instead of growing the arrays to it.
 */
import type { IngestKind } from "../core/types.ts";

/** The labels recall filters on without touching the database. */
export interface ChunkLabels {
  domain: string;
  source: IngestKind;
  createdMs: number;
  flagged: boolean;
  expiresMs?: number;
}

const PRESENT = 1;
const FLAGGED = 2;
const EXPIRES = 4;

/** Chunk labels by id, in typed arrays. */
export class LabelTable {
  #bits: Uint8Array;
  #domain: Uint32Array;
  #source: Uint8Array;
  #created: Float64Array;
  #expires: Float64Array;
  #size = 0;
  /** Interned domain names, and sources (few distinct values each). */
  readonly #names: string[] = [];
  readonly #nameIds = new Map<string, number>();
  readonly #sources: string[] = [];
  readonly #sourceIds = new Map<string, number>();
  readonly #overflow = new Map<number, ChunkLabels>();

  /** Room for ids below `capacity` before growing. */
  constructor(capacity = 1024) {
    const n = Math.max(16, capacity);
    this.#bits = new Uint8Array(n);
    this.#domain = new Uint32Array(n);
    this.#source = new Uint8Array(n);
    this.#created = new Float64Array(n);
    this.#expires = new Float64Array(n);
  }

  /** Number of chunks with labels. */
  get size(): number {
    return this.#size + this.#overflow.size;
  }

  /** True when `id` has labels. */
  has(id: number): boolean {
    return this.#inRange(id) ? (this.#bits[id] & PRESENT) !== 0 : this.#overflow.has(id);
  }

  /** The labels of `id` (a fresh object), or undefined. */
  get(id: number): ChunkLabels | undefined {
    if (!this.#inRange(id)) return this.#overflow.get(id);
    const bits = this.#bits[id];
    if ((bits & PRESENT) === 0) return undefined;
    const l: ChunkLabels = {
      domain: this.#names[this.#domain[id]], source: this.#sources[this.#source[id]] as IngestKind,
      createdMs: this.#created[id], flagged: (bits & FLAGGED) !== 0,
    };
    if (bits & EXPIRES) l.expiresMs = this.#expires[id];
    return l;
  }

  /** The domain of `id` without building its labels object (boot's vector load), or undefined. */
  domainOf(id: number): string | undefined {
    if (!this.#inRange(id)) return this.#overflow.get(id)?.domain;
    return (this.#bits[id] & PRESENT) === 0 ? undefined : this.#names[this.#domain[id]];
  }

  /** Sets (or replaces) the labels of `id`. */
  set(id: number, l: ChunkLabels): this {
    if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`chunk id ${id} is not a non-negative integer`);
    if (id >= this.#bits.length) {
      if (id >= 4 * Math.max(this.#bits.length, this.#size) + 1024) {
        this.delete(id);
        this.#overflow.set(id, { ...l });
        return this;
      }
      this.#grow(id + 1);
    }
    if ((this.#bits[id] & PRESENT) === 0) this.#size++;
    const source = intern(this.#sources, this.#sourceIds, l.source);
    if (source > 0xff) throw new RangeError("more than 256 distinct sources");
    this.#domain[id] = intern(this.#names, this.#nameIds, l.domain);
    this.#source[id] = source;
    this.#created[id] = l.createdMs;
    this.#expires[id] = l.expiresMs ?? 0;
    this.#bits[id] = PRESENT | (l.flagged ? FLAGGED : 0) | (l.expiresMs !== undefined ? EXPIRES : 0);
    return this;
  }

  /** Every id with labels, ascending within the arrays, then the overflow (the change feed's reconcile walks them). */
  *keys(): IterableIterator<number> {
    for (let id = 0; id < this.#bits.length; id++) if (this.#bits[id] & PRESENT) yield id;
    yield* this.#overflow.keys();
  }

  /** Drops the labels of `id`; true when there were some. */
  delete(id: number): boolean {
    if (!this.#inRange(id)) return this.#overflow.delete(id);
    if ((this.#bits[id] & PRESENT) === 0) return false;
    this.#bits[id] = 0;
    this.#size--;
    return true;
  }

  #inRange(id: number): boolean {
    return id >= 0 && id < this.#bits.length && Number.isInteger(id);
  }

  #grow(need: number): void {
    let cap = this.#bits.length;
    while (cap < need) cap *= 2;
    const g = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, b: T): T => {
      b.set(a as never);
      return b;
    };
    this.#bits = g(this.#bits, new Uint8Array(cap));
    this.#domain = g(this.#domain, new Uint32Array(cap));
    this.#source = g(this.#source, new Uint8Array(cap));
    this.#created = g(this.#created, new Float64Array(cap));
    this.#expires = g(this.#expires, new Float64Array(cap));
    // Ids that now fit move in from the overflow map.
    for (const [id, l] of this.#overflow) {
      if (id < cap) {
        this.#overflow.delete(id);
        this.set(id, l);
      }
    }
  }
}

function intern(names: string[], ids: Map<string, number>, name: string): number {
  let i = ids.get(name);
  if (i === undefined) {
    i = names.length;
    names.push(name);
    ids.set(name, i);
  }
  return i;
}
