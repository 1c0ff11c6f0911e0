/**
 * Rebuilds an `InvertedStore` from validated forward lists in two linear
 * passes: count document frequencies, then fill exactly-sized postings in
 * slot order (so every posting is an append). Used when loading a saved
 * index and when compacting; several times faster than re-adding documents
 * one by one, and no text is re-analysed.
 */

import { InvertedStore } from "./inverted-store.ts";
import { FIELDS, TermPostings } from "./term-postings.ts";

/** Validated, decoded snapshot data. */
export interface ForwardData {
  terms: string[];
  /** Slot of each document (distinct). */
  docNos: Uint32Array;
  extIds: ArrayLike<number>;
  /** Per document: mask, then (sequence length, total length) per field. */
  meta: Uint32Array;
  /** Forward lists, document then field order; every id < terms.length. */
  tokens: Uint32Array;
}

const META = 1 + 2 * FIELDS;
const TF_MAX = 0xffff;

/** Builds the store; the caller has validated lengths, ids and distinct slots. */
export function buildStore(data: ForwardData): InvertedStore {
  const { terms, docNos, extIds, meta, tokens } = data;
  const n = docNos.length;
  const store = new InvertedStore();
  for (const t of terms) store.intern(t);
  const start = new Uint32Array(n + 1);
  let maxDoc = -1;
  for (let i = 0; i < n; i++) {
    let len = 0;
    for (let f = 0; f < FIELDS; f++) len += meta[i * META + 2 + 2 * f];
    start[i + 1] = start[i] + len;
    if (docNos[i] > maxDoc) maxDoc = docNos[i];
  }
  const last = new Int32Array(terms.length).fill(-1);
  const df = countDocumentFrequencies(tokens, start, n, last, terms.length);
  // All postings live in two shared buffers, each term a view at its offset: no per-term allocation and
  // no object access in the token loop (the load-time hot path, README "Recall" boot figures).
  const offset = new Uint32Array(terms.length + 1);
  for (let t = 0; t < terms.length; t++) offset[t + 1] = offset[t] + df[t];
  const allDocs = new Uint32Array(offset[terms.length]);
  const allTfs = new Uint16Array(offset[terms.length] * FIELDS);
  const cursor = offset.slice(0, terms.length);
  store.reserve(maxDoc + 1);
  last.fill(-1);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => docNos[a] - docNos[b]);
  for (const i of order) {
    const d = docNos[i];
    store.extIds[d] = extIds[i];
    store.mask[d] = meta[i * META];
    store.liveCount++;
    let at = start[i];
    for (let f = 0; f < FIELDS; f++) {
      const seq = meta[i * META + 1 + 2 * f];
      const len = meta[i * META + 2 + 2 * f];
      if ((store.mask[d] & (1 << f)) === 0) continue;
      const ids = tokens.subarray(at, at + len);
      at += len;
      const slot = d * FIELDS + f;
      store.fwd[slot] = ids;
      store.fieldLen[slot] = len;
      store.seqLen[slot] = seq;
      store.sumLen[f] += len;
      fillPostings(ids, i, d, f, last, cursor, allDocs, allTfs);
    }
  }
  for (let t = 0; t < terms.length; t++) {
    store.postings[t] = df[t] === 0 ? new TermPostings(1)
      : TermPostings.over(allDocs.subarray(offset[t], offset[t + 1]), allTfs.subarray(offset[t] * FIELDS, offset[t + 1] * FIELDS));
  }
  store.revision++;
  return store;
}

/** Document frequency per term from the forward lists (`last` is scratch, filled with -1). */
function countDocumentFrequencies(tokens: Uint32Array, start: Uint32Array, n: number, last: Int32Array, terms: number): Uint32Array {
  const df = new Uint32Array(terms);
  for (let i = 0; i < n; i++) {
    for (let j = start[i], end = start[i + 1]; j < end; j++) {
      const t = tokens[j];
      if (last[t] !== i) {
        last[t] = i;
        df[t]++;
      }
    }
  }
  return df;
}

/** Appends document `i` (slot `d`) to the postings of each term in one field's forward list. Small so V8 optimizes the hot loop. */
function fillPostings(
  ids: Uint32Array, i: number, d: number, f: number, last: Int32Array, cursor: Uint32Array, allDocs: Uint32Array, allTfs: Uint16Array,
): void {
  for (let j = 0, len = ids.length; j < len; j++) {
    const t = ids[j];
    if (last[t] !== i) {
      last[t] = i;
      allDocs[cursor[t]++] = d;
    }
    const k = (cursor[t] - 1) * FIELDS + f;
    if (allTfs[k] < TF_MAX) allTfs[k]++;
  }
}
