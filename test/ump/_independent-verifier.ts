/**
 * An independent UMP 1.0 record verifier written from the notes alone
 * (UMP-1.0-NOTES "Hashing, ids and signatures"): its own JCS, base32,
 * base58btc and base64, with only BLAKE3 and Ed25519 primitives borrowed.
 * It shares no code with src/ump, so a record signed by Cairn that passes
 * here is interoperable.
 */
import * as ed from "@noble/ed25519";
import { blake3 } from "@noble/hashes/blake3.js";
import { sha512 } from "@noble/hashes/sha2.js";

ed.hashes.sha512 = sha512;

// RFC 8785: sorted members (UTF-16 code units), ES number form, JSON.stringify string escaping.
function jcs(v: unknown): string {
  if (v === null || typeof v === "boolean" || typeof v === "number" || typeof v === "string") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(jcs).join(",")}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${jcs(o[k])}`).join(",")}}`;
}

function base32(bytes: Uint8Array): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  let bits = 0, value = 0, out = "";
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}

function base58(text: string): Uint8Array {
  const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
  let n = 0n;
  for (const ch of text) {
    const i = alphabet.indexOf(ch);
    if (i < 0) throw new Error("bad base58");
    n = n * 58n + BigInt(i);
  }
  const out: number[] = [];
  while (n > 0n) {
    out.unshift(Number(n % 256n));
    n /= 256n;
  }
  for (const ch of text) {
    if (ch !== "1") break;
    out.unshift(0);
  }
  return Uint8Array.from(out);
}

/** True when the record's integrity verifies as the notes describe. */
export function independentVerify(record: Record<string, unknown>): boolean {
  const integrity = record.integrity as { content_hash?: string; signature?: string; signer?: string } | undefined;
  if (!integrity?.content_hash || !integrity.signature || !integrity.signer) return false;
  const { integrity: _drop, ...rest } = record;
  const hash = "blake3:" + base32(blake3(new TextEncoder().encode(jcs(rest))));
  if (hash !== integrity.content_hash) return false;
  if (!integrity.signer.startsWith("did:key:z") || !integrity.signature.startsWith("ed25519:")) return false;
  const key = base58(integrity.signer.slice("did:key:z".length));
  if (key.length !== 34 || key[0] !== 0xed || key[1] !== 0x01) return false;
  const sig = Uint8Array.from(atob(integrity.signature.slice("ed25519:".length)), (c) => c.charCodeAt(0));
  return ed.verify(sig, blake3(new TextEncoder().encode(integrity.content_hash)), key.slice(2));
}

/** The content-addressed id the notes define for a record without id and integrity. */
export function independentId(record: Record<string, unknown>): string {
  const { integrity: _i, id: _d, ...rest } = record;
  return "urn:ump:" + base32(blake3(new TextEncoder().encode(jcs(rest))));
}
