/**
 * Plain-data save and load of an `InvertedStore`. Only the vocabulary in use,
 * each term's document frequency and the per-document forward lists are
 * written; postings and statistics are rebuilt on load by one streaming pass
 * (`buildStore`), so a loaded store is the same store, not an approximation
 * of it. Terms are numbered by descending
 * collection frequency and forward lists stored as LEB128 varints, so most
 * tokens take one or two bytes. Loading validates every length and id and
 * answers null on anything malformed, so a caller simply rebuilds.
 */

import { base64ToBytes, base64ToU32, bytesToBase64, u32ToBase64, u32ToBytes } from "./base64.ts";
import { assembleStore, buildStore, fillPostings, type BuiltPostings, type ForwardData } from "./bulk-build.ts";
import type { InvertedStore } from "./inverted-store.ts";
import { FIELDS } from "./term-postings.ts";
import { encodeVarints } from "./varint.ts";

/** Words of per-document metadata: field mask, then (sequence length, total length) per field. */
const META = 1 + 2 * FIELDS;

/**
 * The persisted form of a store: JSON-safe (binary fields as base64) or, for the snapshot file container, with the
 * binary fields as bytes (`binary`), which the container writes as raw sections (issue 20: at a million chunks the
 * forward lists are ~280 MB, their base64 ~390M characters — near V8's longest string — and the base64 round trip
 * was ~60 s of a node's clean stop).
 */
export interface EncodedStore {
  /** Vocabulary in use, most frequent first; forward lists refer to terms by position here. */
  terms: string[];
  /** Slot of each document (u32 little-endian). */
  docNos: string | Uint8Array;
  /** External id of each document. */
  ids: number[];
  /** Per document: mask, then sequence length and total length per field (u32). */
  meta: string | Uint8Array;
  /** All forward lists, document then field order, as LEB128 varints. */
  tokens: string | Uint8Array;
  /** Document frequency of each term (u32); optional on load (older snapshots), then counted. */
  df?: string | Uint8Array;
}

/** Writes the live documents of a store in slot order; `renumber` assigns slots 0..n-1; `binary`: bytes, not base64. */
export function encodeStore(store: InvertedStore, renumber = false, binary = false): EncodedStore {
  const cf = new Uint32Array(store.terms.length);
  let total = 0;
  for (let d = 0; d < store.slotCount; d++) {
    if (!store.isLive(d)) continue;
    for (let f = 0; f < FIELDS; f++) {
      const fwd = store.fwdIds(d * FIELDS + f);
      if (fwd === undefined) continue;
      total += fwd.length;
      for (const id of fwd) cf[id]++;
    }
  }
  const used: number[] = [];
  for (let id = 0; id < cf.length; id++) if (cf[id] > 0) used.push(id);
  used.sort((a, b) => cf[b] - cf[a] || a - b);
  const local = new Uint32Array(store.terms.length);
  used.forEach((id, i) => (local[id] = i));

  const tokens = new Uint32Array(total);
  const docNos: number[] = [];
  const ids: number[] = [];
  const meta: number[] = [];
  let at = 0;
  for (let d = 0; d < store.slotCount; d++) {
    if (!store.isLive(d)) continue;
    docNos.push(renumber ? docNos.length : d);
    ids.push(store.extIds[d]);
    meta.push(store.mask[d]);
    for (let f = 0; f < FIELDS; f++) {
      const slot = d * FIELDS + f;
      meta.push(store.seqLen[slot], store.fieldLen[slot]);
      const fwd = store.fwdIds(slot);
      if (fwd !== undefined) for (const id of fwd) tokens[at++] = local[id];
    }
  }
  const u32 = (v: Uint32Array) => (binary ? u32ToBytes(v) : u32ToBase64(v));
  const varints = encodeVarints(tokens);
  return {
    terms: used.map((id) => store.terms[id]),
    docNos: u32(Uint32Array.from(docNos)),
    ids,
    meta: u32(Uint32Array.from(meta)),
    tokens: binary ? varints : bytesToBase64(varints),
    df: u32(Uint32Array.from(used, (id) => store.df(id))),
  };
}

/** Rebuilds a store from `encodeStore` output; null when the data is malformed or a slot is ≥ `slotLimit`. */
export function decodeStore(data: unknown, slotLimit: number): InvertedStore | null {
  const forward = forwardDataOf(data, slotLimit);
  if (!forward) return null;
  // Postings another thread already filled (`prebuildStore`) are taken as they are; else they are filled here.
  const pre = (data as { prebuilt?: unknown }).prebuilt;
  return isBuilt(pre) ? assembleStore(forward, pre) : buildStore(forward);
}

/**
 * Runs the heavy half of `decodeStore` ahead of it (e.g. on a worker thread while the main thread reads labels
 * and vectors): validates, fills the postings and attaches them to `data` as `prebuilt`. Returns the buffers a
 * transfer should move (empty when the data is malformed; `decodeStore` then answers null as usual).
 */
export function prebuildStore(data: unknown): ArrayBuffer[] {
  const forward = forwardDataOf(data, Infinity);
  const built = forward && fillPostings(forward);
  if (!built) return [];
  (data as { prebuilt?: BuiltPostings }).prebuilt = built;
  return [built.offset.buffer, built.docs.buffer, built.tfs.buffer, built.ends.buffer] as ArrayBuffer[];
}

function isBuilt(v: unknown): v is BuiltPostings {
  const b = v as BuiltPostings | undefined;
  return b !== undefined && b !== null && b.offset instanceof Uint32Array && b.docs instanceof Uint32Array &&
    b.tfs instanceof Uint8Array && b.wide instanceof Map && b.ends instanceof Uint32Array;
}

/** The validated forward data of an encoded store, or null. */
function forwardDataOf(data: unknown, slotLimit: number): ForwardData | null {
  if (!isEncoded(data)) return null;
  const docNos = toU32(data.docNos);
  const meta = toU32(data.meta);
  const bytes = typeof data.tokens === "string" ? base64ToBytes(data.tokens) : data.tokens;
  if (!docNos || !meta || !bytes) return null;
  const n = docNos.length;
  if (data.ids.length !== n || meta.length !== n * META) return null;
  if (new Set(data.terms).size !== data.terms.length) return null;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const id = data.ids[i];
    const mask = meta[i * META];
    // Slots strictly ascending (encodeStore writes slot order), so also distinct.
    if (docNos[i] >= slotLimit || (i > 0 && docNos[i] <= docNos[i - 1])) return null;
    if (typeof id !== "number" || !Number.isFinite(id) || mask === 0 || mask >= 1 << FIELDS) return null;
    for (let f = 0; f < FIELDS; f++) {
      const seq = meta[i * META + 1 + 2 * f];
      const len = meta[i * META + 2 + 2 * f];
      if (seq > len || ((mask & (1 << f)) === 0 && len !== 0)) return null;
      total += len;
    }
  }
  // Each id takes one to five bytes (the fill then checks the exact fit).
  if (total > bytes.length || bytes.length > total * 5) return null;
  let df: Uint32Array | undefined;
  if (data.df !== undefined) {
    const d = toU32(data.df);
    if (!d || d.length !== data.terms.length) return null;
    df = d;
  }
  return { terms: data.terms, docNos, extIds: data.ids, meta, bytes, df };
}

/** An encoded store as loaded: the binary fields may arrive as bytes from the snapshot file container. */
type LoadedStore = EncodedStore;

function isEncoded(data: unknown): data is LoadedStore {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return Array.isArray(d.terms) && d.terms.every((t) => typeof t === "string") &&
    isBinary(d.docNos) && Array.isArray(d.ids) && isBinary(d.meta) && isBinary(d.tokens) && (d.df === undefined || isBinary(d.df));
}

/** A field saved as base64, or handed over as bytes by the snapshot file container (`snapshot-file.ts`). */
const isBinary = (v: unknown): v is string | Uint8Array => typeof v === "string" || v instanceof Uint8Array;

/** Little-endian u32 values from base64 or bytes (a view when aligned on a little-endian host). */
function toU32(v: string | Uint8Array): Uint32Array | null {
  if (typeof v === "string") return base64ToU32(v);
  if (v.length % 4 !== 0) return null;
  if (LITTLE_ENDIAN && v.byteOffset % 4 === 0) return new Uint32Array(v.buffer, v.byteOffset, v.length / 4);
  const out = new Uint32Array(v.length / 4);
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
