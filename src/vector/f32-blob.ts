/**
 * Conversion between vectors and libSQL's `F32_BLOB` column layout: the raw
 * little-endian IEEE-754 float32 values, 4 bytes each, no header or type byte
 * (checked against libSQL's `vector32()` / `vector_extract()` in the tests).
 */

import { MemoryError } from "../core/errors.ts";

/** Encodes a vector as an `F32_BLOB` value (little-endian float32). */
export function toF32Blob(vec: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(vec.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < vec.length; i++) view.setFloat32(i * 4, vec[i], true);
  return out;
}

/** Decodes an `F32_BLOB` value (as libSQL returns it: ArrayBuffer or bytes) into a fresh Float32Array. */
export function fromF32Blob(bytes: Uint8Array | ArrayBuffer): Float32Array {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  if (u8.length % 4 !== 0) {
    throw new MemoryError("internal_error", `F32_BLOB length ${u8.length} is not a multiple of 4`);
  }
  const view = new DataView(u8.buffer, u8.byteOffset, u8.byteLength);
  const out = new Float32Array(u8.length / 4);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}
