/**
 * Base64 for binary data, so a persisted index stays JSON-safe plain data.
 * Uses only the Web globals `btoa`/`atob` (Node and Deno alike) and writes
 * 32-bit integers little-endian whatever the host byte order.
 */

const CHUNK = 0x8000;
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Encodes bytes as base64. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode.apply(null, bytes.subarray(i, i + CHUNK) as unknown as number[]);
  }
  return btoa(binary);
}

/** Decodes base64; null when the text is not valid base64. */
export function base64ToBytes(text: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Encodes 32-bit unsigned integers as base64 (little-endian). */
export function u32ToBase64(values: Uint32Array): string {
  const bytes = new Uint8Array(values.length * 4);
  if (LITTLE_ENDIAN) bytes.set(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
  else {
    const view = new DataView(bytes.buffer);
    for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i], true);
  }
  return bytesToBase64(bytes);
}

/** 32-bit unsigned integers as little-endian bytes (a view, no copy, on a little-endian host). */
export function u32ToBytes(values: Uint32Array): Uint8Array {
  if (LITTLE_ENDIAN) return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
  const bytes = new Uint8Array(values.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < values.length; i++) view.setUint32(i * 4, values[i], true);
  return bytes;
}

/** Decodes base64 made by `u32ToBase64`; null when it is not valid base64 of whole 32-bit words. */
export function base64ToU32(text: string): Uint32Array | null {
  const bytes = base64ToBytes(text);
  if (bytes === null || bytes.length % 4 !== 0) return null;
  if (LITTLE_ENDIAN) return new Uint32Array(bytes.buffer, 0, bytes.length / 4);
  const out = new Uint32Array(bytes.length / 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < out.length; i++) out[i] = view.getUint32(i * 4, true);
  return out;
}
