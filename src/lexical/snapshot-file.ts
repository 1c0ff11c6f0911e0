/**
 * The on-disk form of a lexical snapshot (`SnapshotStore` over a file): a small JSON header plus the
 * large base64 fields of `LexicalIndex.toJSON()` (forward lists, per-document metadata) as raw binary
 * sections. At 50k documents the plain-JSON file was 22 MB of mostly base64 whose parse and decode took
 * ~0.7 s of every boot and a transient ~50 MB of strings; the container is read with one JSON.parse of the
 * header and views onto the file's bytes. `decodeSnapshotFile` also accepts the plain-JSON form, so an
 * older snapshot still loads.
 *
 * Layout: "CAIRNSN1" · u32 header bytes · u32 sections · u32 length per section · header (UTF-8 JSON,
 * each moved string replaced by {"$b64": index}) · sections, each starting on an 8-byte boundary.
 *
 * Issue 20: a `Uint8Array` value (whatever its length) goes to a section as it is — `LexicalIndex.toSnapshot()` and a
 * node's cache section hand over bytes, so a save no longer encodes base64 only to decode it again here.
 */
import { base64ToBytes } from "./base64.ts";

const MAGIC = "CAIRNSN1";
/** Strings at least this long that are canonical base64 move to binary sections. */
const MIN_MOVED = 4096;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const pad8 = (n: number) => (n + 7) & ~7;

/** Encodes snapshot data (anything JSON-serialisable) into the container. */
export function encodeSnapshotFile(data: unknown): Uint8Array {
  const sections: Uint8Array[] = [];
  const header = new TextEncoder().encode(JSON.stringify(data, (_key, value) => {
    if (value instanceof Uint8Array) {
      sections.push(value);
      return { $b64: sections.length - 1 };
    }
    if (typeof value === "string" && value.length >= MIN_MOVED && value.length % 4 === 0 && BASE64.test(value)) {
      const bytes = base64ToBytes(value);
      if (bytes !== null) {
        sections.push(bytes);
        return { $b64: sections.length - 1 };
      }
    }
    return value;
  }));
  const prefix = 8 + 4 + 4 + 4 * sections.length;
  let size = pad8(prefix + header.length);
  const offsets = sections.map((s) => {
    const at = size;
    size = pad8(size + s.length);
    return at;
  });
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode(MAGIC), 0);
  view.setUint32(8, header.length, true);
  view.setUint32(12, sections.length, true);
  sections.forEach((s, i) => view.setUint32(16 + 4 * i, s.length, true));
  out.set(header, prefix);
  sections.forEach((s, i) => out.set(s, offsets[i]));
  return out;
}

/**
 * Decodes a container (moved strings come back as `Uint8Array` views, which `decodeStore` accepts in
 * place of base64) or a plain-JSON snapshot. Throws on malformed input; the caller then rebuilds.
 */
export function decodeSnapshotFile(bytes: Uint8Array): unknown {
  if (bytes.length < 16 || new TextDecoder().decode(bytes.subarray(0, 8)) !== MAGIC) return JSON.parse(new TextDecoder().decode(bytes));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = view.getUint32(8, true);
  const count = view.getUint32(12, true);
  const prefix = 16 + 4 * count;
  if (prefix + headerLen > bytes.length) throw new Error("snapshot header truncated");
  const sections: Uint8Array[] = [];
  let at = pad8(prefix + headerLen);
  for (let i = 0; i < count; i++) {
    const len = view.getUint32(16 + 4 * i, true);
    if (at + len > bytes.length) throw new Error("snapshot section truncated");
    sections.push(bytes.subarray(at, at + len));
    at = pad8(at + len);
  }
  // Issue 25: parsed without a reviver (a reviver call per value cost ~1 s of the worker's boot at 50k, most of
  // them on the vocabulary and id arrays), then the placeholders are swapped in by one walk.
  return restoreSections(JSON.parse(new TextDecoder().decode(bytes.subarray(prefix, prefix + headerLen))), sections);
}

/** Replaces every `{"$b64": i}` object in parsed JSON by section i (what a reviver would have done). */
function restoreSections(value: unknown, sections: Uint8Array[]): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (v !== null && typeof v === "object") value[i] = restoreSections(v, sections);
    }
    return value;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && keys[0] === "$b64" && Number.isInteger(o.$b64) && sections[o.$b64 as number]) return sections[o.$b64 as number];
  for (const k of keys) o[k] = restoreSections(o[k], sections);
  return o;
}

/**
 * Copies every section view of decoded data into one new buffer, except those under `keepKey` objects (issue 20: a
 * node cache's vector pages). The lexical index keeps its section views for life, so without this the whole file's
 * buffer — vectors included, which the matrix copies — stays resident: at a million chunks ~400 MB held twice. After
 * the repack, the file's buffer is referenced only by the views left out, and is freed once they are dropped.
 * Returns the new buffer (to transfer), or undefined when there was nothing to leave out.
 */
export function repackSections(data: unknown, keepKey: string, file: ArrayBufferLike): ArrayBuffer | undefined {
  const moved: { owner: Record<string | number, unknown>; key: string | number; bytes: Uint8Array }[] = [];
  let kept = 0;
  const visit = (owner: Record<string | number, unknown>, key: string | number, x: unknown, skip: boolean): void => {
    if (x instanceof Uint8Array) {
      if (x.buffer !== file) return; // postings filled on the worker have buffers of their own
      if (skip) kept++;
      else moved.push({ owner, key, bytes: x });
    } else if (x !== null && typeof x === "object") walk(x, skip || key === keepKey);
  };
  const walk = (v: object, skip: boolean): void => {
    if (ArrayBuffer.isView(v) || v instanceof Map) return;
    const o = v as Record<string | number, unknown>;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) if (v[i] !== null && typeof v[i] === "object") visit(o, i, v[i], skip);
    } else for (const k of Object.keys(o)) visit(o, k, o[k], skip);
  };
  if (data !== null && typeof data === "object") walk(data, false);
  if (kept === 0 || moved.length === 0) return undefined;
  let size = 0;
  for (const m of moved) size = pad8(size + m.bytes.length);
  const buffer = new ArrayBuffer(size);
  let at = 0;
  for (const m of moved) {
    const copy = new Uint8Array(buffer, at, m.bytes.length);
    copy.set(m.bytes);
    m.owner[m.key] = copy;
    at = pad8(at + m.bytes.length);
  }
  return buffer;
}
