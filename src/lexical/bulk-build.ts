/**
 * Rebuilds an `InvertedStore` from saved forward lists (LEB128 varints) in
 * one streaming pass when the document frequencies were saved too (else a
 * counting pass first): exactly-sized postings are filled in slot order, so
 * every posting is an append, and the saved bytes are the forward lists' page
 * (no per-list object). Used when loading a snapshot and when compacting; no text is
 * re-analysed.
 *
 * Boot time is mostly memory first touched (on this 2-core VM ~8 ms per MB,
 * docs/benchmarks.md "Embedded server"), so nothing is materialised that the store does not keep:
 * no decoded token array, no copy of the forward lists.
 */

import { InvertedStore } from "./inverted-store.ts";
import { FIELDS } from "./term-postings.ts";

/** Validated snapshot data (lengths, slots and masks checked by the caller). */
export interface ForwardData {
  terms: string[];
  /** Slot of each document, strictly ascending. */
  docNos: Uint32Array;
  extIds: ArrayLike<number>;
  /** Per document: mask, then (sequence length, total length) per field. */
  meta: Uint32Array;
  /** Forward lists, document then field order, as LEB128 varints. */
  bytes: Uint8Array;
  /** Document frequency per term, when saved. */
  df?: Uint32Array;
}

const META = 1 + 2 * FIELDS;
const TF_MAX = 0xffff;
/** Term frequencies are filled as one byte per entry and field (issue 25: 2 bytes a posting instead of 4). */
const TF_BYTE_MAX = 0xff;

/** The heavy half of a load: postings in shared buffers, and where each forward list ends in `bytes`. */
export interface BuiltPostings {
  /** Term t's postings are entries offset[t] .. offset[t + 1] − 1. */
  offset: Uint32Array;
  docs: Uint32Array;
  /** Per entry and field, one byte each (a count above 255 is in `wide`). */
  tfs: Uint8Array;
  /** Terms with a count above 255 in some entry: term id → its own per-entry, per-field Uint16 counts (rare). */
  wide: Map<number, Uint16Array>;
  /** End offset in `bytes` of each document's field list (document then field order; absent fields end where they start). */
  ends: Uint32Array;
}

/** Builds the store; null when the bytes do not hold exactly the declared lists of in-range ids (or df disagrees). */
export function buildStore(data: ForwardData): InvertedStore | null {
  const built = fillPostings(data);
  return built && assembleStore(data, built);
}

/**
 * Decodes the forward lists once and fills exactly-sized postings in slot order (the CPU- and memory-heavy
 * half; pure typed arrays, so a runtime may run it on another thread). Null on malformed data.
 */
export function fillPostings(data: ForwardData): BuiltPostings | null {
  const { terms, docNos, meta, bytes } = data;
  const n = docNos.length;
  const T = terms.length;
  for (let i = 1; i < n; i++) if (docNos[i] <= docNos[i - 1]) return null;
  const last = new Int32Array(T).fill(-1);
  const df = data.df ?? countDocumentFrequencies(data, last);
  if (df === null || df.length !== T) return null;
  // All postings live in two shared buffers, each term a view at its offset: no per-term allocation and
  // no object access in the token loop (the load-time hot path, docs/benchmarks.md boot figures).
  const offset = new Uint32Array(T + 1);
  for (let t = 0; t < T; t++) offset[t + 1] = offset[t] + df[t];
  const docs = new Uint32Array(offset[T]);
  const tfs = new Uint8Array(offset[T] * FIELDS);
  // Counts past one byte, by entry-and-field slot (only documents repeating a word 256+ times in one field).
  const over = new Map<number, number>();
  const ends = new Uint32Array(n * FIELDS);
  const cursor = offset.slice(0, T);
  last.fill(-1);
  let at = 0;
  for (let i = 0; i < n; i++) {
    const mask = meta[i * META];
    for (let f = 0; f < FIELDS; f++) {
      if ((mask & (1 << f)) !== 0) {
        at = fillField(bytes, at, meta[i * META + 2 + 2 * f], i, docNos[i], f, last, cursor, offset, docs, tfs, over);
        if (at < 0) return null;
      }
      ends[i * FIELDS + f] = at;
    }
  }
  if (at !== bytes.length) return null;
  for (let t = 0; t < T; t++) if (cursor[t] !== offset[t + 1]) return null;
  return { offset, docs, tfs, wide: widen(over, offset, tfs), ends };
}

/** Own Uint16 counts for each term with an overflowed slot (capped at 65,535 as the store's own lists are). */
function widen(over: Map<number, number>, offset: Uint32Array, tfs: Uint8Array): Map<number, Uint16Array> {
  const wide = new Map<number, Uint16Array>();
  for (const [slot, count] of over) {
    const entry = (slot - (slot % FIELDS)) / FIELDS;
    let lo = 0, hi = offset.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (offset[mid] <= entry) lo = mid;
      else hi = mid - 1;
    }
    let own = wide.get(lo);
    if (!own) wide.set(lo, (own = Uint16Array.from(tfs.subarray(offset[lo] * FIELDS, offset[lo + 1] * FIELDS))));
    own[slot - offset[lo] * FIELDS] = Math.min(TF_MAX, count);
  }
  return wide;
}

/** The light half: the store over the filled postings, each forward list a view onto `bytes`. Null when shapes disagree. */
export function assembleStore(data: ForwardData, b: BuiltPostings): InvertedStore | null {
  const { terms, docNos, extIds, meta, bytes } = data;
  const n = docNos.length;
  const T = terms.length;
  if (b.offset.length !== T + 1 || b.docs.length !== b.offset[T] || b.tfs.length !== b.docs.length * FIELDS || b.ends.length !== n * FIELDS) return null;
  const { offset, docs, tfs, wide } = b;
  for (const [t, own] of wide) if (t >= T || own.length !== (offset[t + 1] - offset[t]) * FIELDS) return null;
  const store = new InvertedStore();
  // Issue 25: the store reads the shared buffers by offset; no per-term object until a term is used.
  store.adoptPostings({ terms: T, offset, docs, tfs, wide });
  for (const t of terms) store.intern(t);
  store.reserve(n > 0 ? docNos[n - 1] + 1 : 0);
  let at = 0;
  const page = store.adoptPage(bytes);
  for (let i = 0; i < n; i++) {
    const d = docNos[i];
    store.extIds[d] = extIds[i];
    store.mask[d] = meta[i * META];
    store.liveCount++;
    for (let f = 0; f < FIELDS; f++) {
      const end = b.ends[i * FIELDS + f];
      if (end < at || end > bytes.length) return null;
      if ((store.mask[d] & (1 << f)) === 0) continue;
      const slot = d * FIELDS + f;
      store.placeFwd(slot, page, at, end);
      at = end;
      store.fieldLen[slot] = meta[i * META + 2 + 2 * f];
      store.seqLen[slot] = meta[i * META + 1 + 2 * f];
      store.sumLen[f] += store.fieldLen[slot];
    }
  }
  store.revision++;
  return store;
}

/** Document frequency per term, counted from the varints (`last` is scratch); null on malformed bytes. */
function countDocumentFrequencies(data: ForwardData, last: Int32Array): Uint32Array | null {
  const { terms, meta, bytes, docNos } = data;
  const df = new Uint32Array(terms.length);
  let at = 0;
  for (let i = 0; i < docNos.length; i++) {
    for (let f = 0; f < FIELDS; f++) {
      if ((meta[i * META] & (1 << f)) === 0) continue;
      for (let k = 0, len = meta[i * META + 2 + 2 * f]; k < len; k++) {
        if (at >= bytes.length) return null;
        let b = bytes[at++];
        let t = b & 0x7f;
        for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
          if (at >= bytes.length || scale > 0x10000000) return null;
          b = bytes[at++];
          t += (b & 0x7f) * scale;
        }
        if (t >= terms.length) return null;
        if (last[t] !== i) {
          last[t] = i;
          df[t]++;
        }
      }
    }
  }
  return df;
}

/**
 * Decodes `len` varints from `at` and appends document `i` (slot `d`) to each term's postings for field `f`.
 * Returns the end offset, or -1 on malformed bytes, an out-of-range id, or more documents than `df` allowed.
 * Small so V8 optimizes the hot loop.
 */
function fillField(
  bytes: Uint8Array, at: number, len: number, i: number, d: number, f: number, last: Int32Array,
  cursor: Uint32Array, offset: Uint32Array, allDocs: Uint32Array, allTfs: Uint8Array, over: Map<number, number>,
): number {
  const n = bytes.length;
  const T = last.length;
  for (let k = 0; k < len; k++) {
    if (at >= n) return -1;
    let b = bytes[at++];
    let t = b & 0x7f;
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      if (at >= n || scale > 0x10000000) return -1;
      b = bytes[at++];
      t += (b & 0x7f) * scale;
    }
    if (t >= T) return -1;
    if (last[t] !== i) {
      last[t] = i;
      if (cursor[t] >= offset[t + 1]) return -1;
      allDocs[cursor[t]++] = d;
    }
    const slot = (cursor[t] - 1) * FIELDS + f;
    if (allTfs[slot] < TF_BYTE_MAX) allTfs[slot]++;
    else over.set(slot, (over.get(slot) ?? TF_BYTE_MAX) + 1);
  }
  return at;
}
