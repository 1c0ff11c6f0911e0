/**
 * Plain-data save and load of an `InvertedStore`. Only the vocabulary in use
 * and the per-document forward lists are written (base64 little-endian
 * words); postings and statistics are rebuilt on load by counting, so a
 * loaded store is the same store, not an approximation of it. Loading
 * validates every length and id and answers null on anything malformed, so
 * a caller simply rebuilds from its database.
 */

import { base64ToU32, u32ToBase64 } from "./base64.ts";
import { InvertedStore } from "./inverted-store.ts";
import { FIELDS } from "./term-postings.ts";

/** Words of per-document metadata: field mask, then (sequence length, total length) per field. */
const META = 1 + 2 * FIELDS;

/** The JSON-safe persisted form of a store. */
export interface EncodedStore {
  /** Vocabulary in use; forward lists refer to terms by position here. */
  terms: string[];
  /** Slot of each document (base64 u32). */
  docNos: string;
  /** External id of each document. */
  ids: number[];
  /** Per document: mask, then sequence length and total length per field (base64 u32). */
  meta: string;
  /** All forward lists, concatenated in document then field order (base64 u32). */
  tokens: string;
}

/** Writes the live documents of a store; `renumber` assigns slots 0..n-1 in slot order. */
export function encodeStore(store: InvertedStore, renumber = false): EncodedStore {
  const used = new Map<number, number>();
  const terms: string[] = [];
  const docNos: number[] = [];
  const ids: number[] = [];
  const meta: number[] = [];
  let total = 0;
  for (let d = 0; d < store.slotCount; d++) {
    if (!store.isLive(d)) continue;
    for (let f = 0; f < FIELDS; f++) total += store.fieldLen[d * FIELDS + f];
  }
  const tokens = new Uint32Array(total);
  let at = 0;
  for (let d = 0; d < store.slotCount; d++) {
    if (!store.isLive(d)) continue;
    docNos.push(renumber ? docNos.length : d);
    ids.push(store.extIds[d]);
    meta.push(store.mask[d]);
    for (let f = 0; f < FIELDS; f++) {
      const slot = d * FIELDS + f;
      meta.push(store.seqLen[slot], store.fieldLen[slot]);
      const fwd = store.fwd[slot];
      if (fwd === undefined) continue;
      for (const id of fwd) {
        let local = used.get(id);
        if (local === undefined) {
          local = terms.length;
          used.set(id, local);
          terms.push(store.terms[id]);
        }
        tokens[at++] = local;
      }
    }
  }
  return {
    terms,
    docNos: u32ToBase64(Uint32Array.from(docNos)),
    ids,
    meta: u32ToBase64(Uint32Array.from(meta)),
    tokens: u32ToBase64(tokens),
  };
}

/** Rebuilds a store from `encodeStore` output; null when the data is malformed or a slot is ≥ `slotLimit`. */
export function decodeStore(data: unknown, slotLimit: number): InvertedStore | null {
  if (!isEncoded(data)) return null;
  const docNos = base64ToU32(data.docNos);
  const meta = base64ToU32(data.meta);
  const tokens = base64ToU32(data.tokens);
  if (!docNos || !meta || !tokens) return null;
  const n = docNos.length;
  if (data.ids.length !== n || meta.length !== n * META) return null;
  const store = new InvertedStore();
  for (const term of data.terms) store.intern(term);
  if (store.terms.length !== data.terms.length) return null; // duplicate terms
  let at = 0;
  const seen = new Set<number>();
  for (let i = 0; i < n; i++) {
    const docNo = docNos[i];
    const id = data.ids[i];
    const mask = meta[i * META];
    if (docNo >= slotLimit || seen.has(docNo) || typeof id !== "number" || !Number.isFinite(id) || mask === 0 || mask >= 1 << FIELDS) return null;
    seen.add(docNo);
    for (let f = 0; f < FIELDS; f++) {
      const seq = meta[i * META + 1 + 2 * f];
      const len = meta[i * META + 2 + 2 * f];
      const present = (mask & (1 << f)) !== 0;
      if (seq > len || (!present && len !== 0) || at + len > tokens.length) return null;
      if (!present) continue;
      const ids = tokens.slice(at, at + len);
      at += len;
      for (const t of ids) if (t >= store.terms.length) return null;
      store.addFieldIds(docNo, id, f, ids, seq);
    }
  }
  return at === tokens.length ? store : null;
}

function isEncoded(data: unknown): data is EncodedStore {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return Array.isArray(d.terms) && d.terms.every((t) => typeof t === "string") &&
    typeof d.docNos === "string" && Array.isArray(d.ids) && typeof d.meta === "string" && typeof d.tokens === "string";
}
