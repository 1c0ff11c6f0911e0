/**
 * A server node's boot cache (issue 20; docs/scale-out.md "Several nodes over one libSQL server"): the lexical snapshot the
 * embedded default already writes, plus the node's vector matrix and a `node` section saying which store and which
 * point of its change sequence the indexes cover. A restarting node loads its indexes from it and reads from the
 * server only the labels and the changes after that point, instead of every chunk's text and vector over HTTP.
 *
 * This file is the pure part: encoding the `node` section and deciding whether a decoded cache may serve. The
 * loader (load-index.ts) applies the changes after the cursor; a cache that does not match is refused and the
 * node reads everything, as a node without a cache does.
 */
import { base64ToBytes, base64ToU32, bytesToBase64, u32ToBase64, u32ToBytes } from "../lexical/base64.ts";
import type { MatrixIndex } from "../vector/matrix-index.ts";

/** Format version of the `node` section. */
export const NODE_CACHE_VERSION = 1;
/** Rows per vector section: moderate sections (a page of 50k float32 rows is 20 MB) keep each copy at save and load small. */
const VECTOR_PAGE_ROWS = 50_000;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Which history the cache covers. */
export interface NodeCacheKey {
  /** `store_identity.store_id` of the server's database (migration 165). */
  storeId: string;
  /** The last change of `chunk_changes` the indexes hold. */
  cursor: number;
  /** That change's chunk and commit time: a database restored from a backup and written since has another row there. */
  cursorChunk: number;
  cursorAtMs: number;
  /** The embedder the vectors came from (`null`: lexical only). */
  embedder: { id: string; dim: number } | null;
}

/** The `node` section as saved. */
interface SavedNodeSection extends NodeCacheKey {
  format: "cairn-node-cache";
  version: number;
  /** `rows: "int8"`: pages of int8 rows and their float32 scales (a node with `CAIRN_NODE_VECTOR_ROWS=int8`). */
  vectors?: { ids: string | Uint8Array; pages: (string | Uint8Array)[]; rows?: "int8"; scales?: string | Uint8Array };
}

/**
 * Builds the `node` section: the key and the matrix rows — float32 rows, or a node's int8 rows with their scales
 * (an int8 matrix over an exact source, the embedded default's, is not cached: its file is the lexical snapshot).
 */
export function encodeNodeSection(key: NodeCacheKey, vectors: MatrixIndex | undefined, binary = false): SavedNodeSection {
  const out: SavedNodeSection = { format: "cairn-node-cache", version: NODE_CACHE_VERSION, ...key };
  // Bytes for the file container (no base64 round trip), base64 for a store that saves plain JSON.
  const field = (b: Uint8Array) => (binary ? b : bytesToBase64(b));
  const ids32 = (v: Uint32Array) => (binary ? u32ToBytes(v) : u32ToBase64(v));
  // Rows in pages of VECTOR_PAGE_ROWS (views, no copy): int8 rows with their scales, or float32 rows.
  const pagesOf = (rows: Int8Array | Float32Array) => {
    const bytes = new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
    const step = VECTOR_PAGE_ROWS * vectors!.dim * rows.BYTES_PER_ELEMENT;
    const pages: (string | Uint8Array)[] = [];
    for (let at = 0; at < bytes.length; at += step) pages.push(field(bytes.subarray(at, at + step)));
    return pages;
  };
  const cacheable = (ids: readonly number[]) => LITTLE_ENDIAN && ids.every((id) => id >= 0 && id <= 0xffffffff);
  const q8 = vectors?.int8Rows();
  const rows = q8 ? undefined : vectors?.floatRows();
  if (q8 && cacheable(q8.ids)) {
    const scales = new Uint8Array(q8.scales.buffer, q8.scales.byteOffset, q8.scales.byteLength);
    out.vectors = { ids: ids32(Uint32Array.from(q8.ids)), pages: pagesOf(q8.data), rows: "int8", scales: field(scales) };
  } else if (rows && cacheable(rows.ids)) {
    out.vectors = { ids: ids32(Uint32Array.from(rows.ids)), pages: pagesOf(rows.data) };
  }
  return out;
}

/** A decoded cache's key and vectors, or a reason it cannot serve. */
export type ReadNodeSection =
  | { ok: true; key: NodeCacheKey; vectors?: { ids: Uint32Array; data: Float32Array } | { ids: Uint32Array; int8: Int8Array; scales: Float32Array } }
  | { ok: false; reason: string };

/** Reads the `node` section of a decoded snapshot (sections arrive as `Uint8Array` views, or base64 from plain JSON). */
export function readNodeSection(saved: unknown, embedder: { id: string; dim: number } | null): ReadNodeSection {
  const n = (saved as { node?: unknown } | null | undefined)?.node as Partial<SavedNodeSection> | undefined;
  if (typeof n !== "object" || n === null || n.format !== "cairn-node-cache") return { ok: false, reason: "no node section" };
  if (n.version !== NODE_CACHE_VERSION) return { ok: false, reason: `node cache version ${String(n.version)}` };
  if (typeof n.storeId !== "string" || !n.storeId || ![n.cursor, n.cursorChunk, n.cursorAtMs].every(Number.isSafeInteger)) {
    return { ok: false, reason: "malformed node section" };
  }
  const e = n.embedder ?? null;
  if ((e === null) !== (embedder === null) || (e && embedder && (e.id !== embedder.id || e.dim !== embedder.dim))) {
    return { ok: false, reason: "cache written with another embedder" };
  }
  const key: NodeCacheKey = { storeId: n.storeId, cursor: n.cursor!, cursorChunk: n.cursorChunk!, cursorAtMs: n.cursorAtMs!, embedder: e };
  if (embedder === null) return { ok: true, key };
  if (!n.vectors || !LITTLE_ENDIAN) return { ok: false, reason: "no vectors in the cache" };
  const ids = typeof n.vectors.ids === "string" ? base64ToU32(n.vectors.ids) : u32Of(n.vectors.ids);
  if (!ids) return { ok: false, reason: "malformed vector ids" };
  if (n.vectors.rows === "int8") return readInt8Rows(n.vectors, key, ids, embedder.dim);
  const data = new Float32Array(ids.length * embedder.dim);
  let at = 0;
  for (const p of n.vectors.pages ?? []) {
    const bytes = typeof p === "string" ? base64ToBytes(p) : p instanceof Uint8Array ? p : null;
    if (!bytes || bytes.length % 4 !== 0 || at + bytes.length / 4 > data.length) return { ok: false, reason: "malformed vector page" };
    // Container sections start on 8-byte boundaries: a view, not a copy, when aligned.
    data.set(bytes.byteOffset % 4 === 0 ? new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) : new Float32Array(bytes.slice().buffer), at);
    at += bytes.length / 4;
  }
  if (at !== data.length) return { ok: false, reason: "vector pages do not match the ids" };
  return { ok: true, key, vectors: { ids, data } };
}

/** The int8 pages and scales of a node that keeps int8 rows. */
function readInt8Rows(v: NonNullable<SavedNodeSection["vectors"]>, key: NodeCacheKey, ids: Uint32Array, dim: number): ReadNodeSection {
  const raw = typeof v.scales === "string" ? base64ToBytes(v.scales) : v.scales instanceof Uint8Array ? v.scales : null;
  if (!raw || raw.length !== ids.length * 4) return { ok: false, reason: "malformed vector scales" };
  const scales = new Float32Array(raw.slice().buffer);
  const int8 = new Int8Array(ids.length * dim);
  let at = 0;
  for (const p of v.pages ?? []) {
    const bytes = typeof p === "string" ? base64ToBytes(p) : p instanceof Uint8Array ? p : null;
    if (!bytes || at + bytes.length > int8.length) return { ok: false, reason: "malformed vector page" };
    int8.set(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), at);
    at += bytes.length;
  }
  if (at !== int8.length) return { ok: false, reason: "vector pages do not match the ids" };
  return { ok: true, key, vectors: { ids, int8, scales } };
}

function u32Of(bytes: unknown): Uint32Array | null {
  if (!(bytes instanceof Uint8Array) || bytes.length % 4 !== 0) return null;
  return bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4) : new Uint32Array(bytes.slice().buffer);
}
