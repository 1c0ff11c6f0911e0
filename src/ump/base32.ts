/**
 * RFC 4648 §6 base32, lowercase and without padding: the alphabet of UMP ids
 * and content hashes (UMP notes "Hashing, ids and signatures"). Decoding is
 * strict (lowercase only, no padding, zero trailing bits) so that every byte
 * string has exactly one textual form and string comparison equals byte comparison.
 */

const ALPHABET = "abcdefghijklmnopqrstuvwxyz234567";
const LOOKUP: Record<string, number> = Object.fromEntries([...ALPHABET].map((c, i) => [c, i]));

/** Encodes bytes as lowercase RFC 4648 base32 without `=` padding. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(buffer >>> bits) & 31];
    }
    buffer &= (1 << bits) - 1; // keep only unread bits so the int never overflows
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/** Decodes lowercase unpadded base32; `null` when the text is not the canonical encoding of some bytes. */
export function base32Decode(text: string): Uint8Array | null {
  // Lengths 1, 3 and 6 (mod 8) cannot come out of the encoder.
  if ([1, 3, 6].includes(text.length % 8)) return null;
  const out = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const ch of text) {
    const value = LOOKUP[ch];
    if (value === undefined) return null;
    buffer = (buffer << 5) | value;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >>> bits) & 0xff;
    }
    buffer &= (1 << bits) - 1;
  }
  if (buffer !== 0) return null; // non-zero padding bits: not canonical
  return out;
}
