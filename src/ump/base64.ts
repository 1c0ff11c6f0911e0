/**
 * Base64 helpers for UMP: standard base64 with padding (record signatures,
 * `ed25519:<base64>`, UMP notes) and base64url without padding (capability
 * token payload and signature). Decoders are strict: they accept only the one
 * canonical encoding of a byte string and return `null` otherwise.
 */

const STANDARD = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let out = "";
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + (pad ? "==" : "");
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >>> 18]! + alphabet[(n >>> 12) & 63]! + alphabet[(n >>> 6) & 63]! + (pad ? "=" : "");
  }
  return out;
}

function decode(text: string, alphabet: string, pad: boolean): Uint8Array | null {
  let body = text;
  if (pad) {
    if (text.length % 4 !== 0) return null;
    body = text.replace(/={1,2}$/, "");
  }
  if (body.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((body.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (let i = 0; i < body.length; i++) {
    const value = alphabet.indexOf(body[i]!);
    if (value < 0) return null;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[index++] = (buffer >>> bits) & 0xff;
    }
  }
  if ((buffer & ((1 << bits) - 1)) !== 0) return null; // non-zero trailing bits
  return out;
}

/** Standard base64 (RFC 4648 §4) with `=` padding. */
export function base64Encode(bytes: Uint8Array): string {
  return encode(bytes, STANDARD, true);
}

/** Decodes padded standard base64; `null` when not canonical. */
export function base64Decode(text: string): Uint8Array | null {
  return decode(text, STANDARD, true);
}

/** base64url (RFC 4648 §5) without padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  return encode(bytes, URL_SAFE, false);
}

/** Decodes unpadded base64url; `null` when not canonical (padding, `+`, `/` or stray bits). */
export function base64UrlDecode(text: string): Uint8Array | null {
  return decode(text, URL_SAFE, false);
}
