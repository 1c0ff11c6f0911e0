/**
 * LEB128 variable-length encoding of unsigned 32-bit integers: 7 bits per
 * byte, high bit set on all but the last byte. Persisted forward lists use
 * it with frequent terms numbered first, so most ids take one or two bytes.
 */

/** Encodes the values into a new byte array. */
export function encodeVarints(values: Uint32Array): Uint8Array {
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    size += v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
  }
  const out = new Uint8Array(size);
  writeVarints(values, out, 0);
  return out;
}

/** Writes the values as varints into `out` from `at` (room checked by the caller, `varintSize`); returns the end. */
export function writeVarints(values: Uint32Array, out: Uint8Array, at: number): number {
  for (let i = 0; i < values.length; i++) {
    let v = values[i];
    while (v >= 0x80) {
      out[at++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    out[at++] = v;
  }
  return at;
}

/** Bytes the values take as varints. */
export function varintSize(values: Uint32Array): number {
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    size += v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
  }
  return size;
}

const SCALE = [1, 0x80, 0x4000, 0x200000, 0x10000000];

/**
 * Decodes the first `count` values of bytes this process encoded or a load validated (no checks): the
 * in-memory forward lists (`InvertedStore.fwd`).
 */
export function decodeVarintPrefix(bytes: Uint8Array, count: number, start = 0): Uint32Array {
  const out = new Uint32Array(count);
  let at = start;
  for (let i = 0; i < count; i++) {
    let b = bytes[at++];
    if (b < 0x80) {
      out[i] = b;
      continue;
    }
    let v = b & 0x7f;
    let scale = 0x80;
    do {
      b = bytes[at++];
      v += (b & 0x7f) * scale;
      scale *= 0x80;
    } while (b >= 0x80);
    out[i] = v;
  }
  return out;
}

/** Decodes exactly `count` values; null when the bytes run out, overflow 32 bits or have bytes left over. */
export function decodeVarints(bytes: Uint8Array, count: number): Uint32Array | null {
  const out = new Uint32Array(count);
  const n = bytes.length;
  let at = 0;
  for (let i = 0; i < count; i++) {
    // Fast path: most persisted ids are frequent terms and fit one byte.
    if (at < n && bytes[at] < 0x80) {
      out[i] = bytes[at++];
      continue;
    }
    let v = 0;
    let k = 0;
    let b: number;
    do {
      if (at >= n || k > 4) return null;
      b = bytes[at++];
      v += (b & 0x7f) * SCALE[k++]; // multiplication, not shifts: the fifth group passes bit 31
    } while (b >= 0x80);
    if (v > 0xffffffff) return null;
    out[i] = v;
  }
  return at === n ? out : null;
}
