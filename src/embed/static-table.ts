/**
 * The binary layout of the static embedding table (SPEC §1: local static
 * embeddings). One little-endian file holds every knob that shapes a vector —
 * SIF parameter, out-of-vocabulary settings, common component — so its SHA-256
 * names the embedder completely. `encodeStaticTable` is used by the build
 * script, `decodeStaticTable` by the runtime; both are pure.
 *
 * Layout (offsets in bytes, all numbers little-endian):
 *   0  magic "CAIRNEMB"            8  u16 format version (1)   10 u16 flags (0)
 *  12  u32 dim                     16 u32 count                 20 f32 SIF a
 *  24  f32 OOV weight              28 f32 OOV vector norm       32 u32 OOV buckets (power of 2)
 *  36  u32 OOV seed                40 u8 n-gram min  41 u8 n-gram max  42 u16 reserved (0)
 *  44  u32 model id byte length, then the UTF-8 model id, zero-padded to 4
 *      u32 words byte length, then the words as UTF-8 joined by "\n", zero-padded to 4
 *      f32[count] SIF weights a/(a+p(w))
 *      f32[count] per-row dequantisation scales
 *      f32[dim]   common component u (all zeros: no removal)
 *      i8[count*dim] row-major quantised vectors (x = scale * q)
 */

import { MemoryError } from "../core/errors.ts";

const MAGIC = "CAIRNEMB";
/** Current layout version; decoding refuses any other. */
export const STATIC_TABLE_VERSION = 1;

/** The decoded (or to-be-encoded) static table. */
export interface StaticTable {
  modelId: string;
  dim: number;
  /** Vocabulary, most frequent first; index = row. */
  words: string[];
  /** SIF parameter a (stored as float32). */
  sifA: number;
  /** SIF weight of a word the table does not hold. */
  oovWeight: number;
  /** Length given to a fallback n-gram vector, so it weighs like a table row. */
  oovNorm: number;
  oovBuckets: number;
  oovSeed: number;
  ngramMin: number;
  ngramMax: number;
  weights: Float32Array;
  scales: Float32Array;
  component: Float32Array;
  vectors: Int8Array;
}

const FIXED_HEADER = 44;
const pad4 = (n: number): number => (n + 3) & ~3;

/** Serialises a table to the layout above. */
export function encodeStaticTable(t: StaticTable): Uint8Array {
  const enc = new TextEncoder();
  const id = enc.encode(t.modelId);
  const words = enc.encode(t.words.join("\n"));
  const count = t.words.length;
  const size = FIXED_HEADER + 4 + pad4(id.length) + 4 + pad4(words.length) + 8 * count + 4 * t.dim + count * t.dim;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(enc.encode(MAGIC), 0);
  view.setUint16(8, STATIC_TABLE_VERSION, true);
  view.setUint16(10, 0, true);
  view.setUint32(12, t.dim, true);
  view.setUint32(16, count, true);
  view.setFloat32(20, t.sifA, true);
  view.setFloat32(24, t.oovWeight, true);
  view.setFloat32(28, t.oovNorm, true);
  view.setUint32(32, t.oovBuckets, true);
  view.setUint32(36, t.oovSeed, true);
  view.setUint8(40, t.ngramMin);
  view.setUint8(41, t.ngramMax);
  let at = FIXED_HEADER;
  view.setUint32(at, id.length, true);
  out.set(id, at + 4);
  at += 4 + pad4(id.length);
  view.setUint32(at, words.length, true);
  out.set(words, at + 4);
  at += 4 + pad4(words.length);
  for (const arr of [t.weights, t.scales, t.component]) {
    for (let i = 0; i < arr.length; i++, at += 4) view.setFloat32(at, arr[i], true);
  }
  out.set(new Uint8Array(t.vectors.buffer, t.vectors.byteOffset, t.vectors.byteLength), at);
  return out;
}

/** Parses table bytes; a malformed or foreign file throws `embed_model_invalid` (boot refuses, as for other loaders). */
export function decodeStaticTable(bytes: Uint8Array, owned = false): StaticTable {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder("utf-8", { fatal: true });
  const dec = {
    decode: (b: Uint8Array): string => {
      try {
        return utf8.decode(b);
      } catch {
        throw invalid("The static embedding table holds invalid UTF-8");
      }
    },
  };
  if (bytes.length < FIXED_HEADER + 8 || dec.decode(bytes.subarray(0, 8)) !== MAGIC) {
    throw invalid("The static embedding table is not a Cairn table");
  }
  const version = view.getUint16(8, true);
  if (version !== STATIC_TABLE_VERSION) throw invalid(`The static embedding table has unsupported version ${version}`);
  const dim = view.getUint32(12, true);
  const count = view.getUint32(16, true);
  const oovBuckets = view.getUint32(32, true);
  if (dim === 0 || oovBuckets === 0 || (oovBuckets & (oovBuckets - 1)) !== 0) throw invalid("The static embedding table header is invalid");
  let at = FIXED_HEADER;
  const idLen = view.getUint32(at, true);
  const modelId = dec.decode(bytes.subarray(at + 4, at + 4 + idLen));
  at += 4 + pad4(idLen);
  const wordsLen = view.getUint32(at, true);
  const words = count === 0 ? [] : dec.decode(bytes.subarray(at + 4, at + 4 + wordsLen)).split("\n");
  at += 4 + pad4(wordsLen);
  if (words.length !== count || bytes.length !== at + 8 * count + 4 * dim + count * dim) {
    throw invalid("The static embedding table is truncated or inconsistent");
  }
  const floats = (n: number): Float32Array => {
    const arr = new Float32Array(n);
    for (let i = 0; i < n; i++, at += 4) arr[i] = view.getFloat32(at, true);
    return arr;
  };
  const weights = floats(count);
  const scales = floats(count);
  const component = floats(dim);
  // Copied, so a caller reusing its buffer cannot change vectors behind the table hash — unless the caller hands
  // the bytes over (`owned`: the runtime loader's fresh read), which saves ~12 MB of first-touched memory at boot.
  const vectors = owned ? new Int8Array(bytes.buffer, bytes.byteOffset + at, count * dim) : new Int8Array(bytes.slice(at, at + count * dim).buffer);
  return {
    modelId, dim, words, sifA: view.getFloat32(20, true), oovWeight: view.getFloat32(24, true),
    oovNorm: view.getFloat32(28, true), oovBuckets, oovSeed: view.getUint32(36, true),
    ngramMin: view.getUint8(40), ngramMax: view.getUint8(41), weights, scales, component, vectors,
  };
}

/** The loader error of SPEC §7 `embed_model_invalid` (same code the model2vec / ONNX loaders use). */
function invalid(message: string): MemoryError {
  return new MemoryError("embed_model_invalid", message);
}
