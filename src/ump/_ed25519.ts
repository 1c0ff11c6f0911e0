/**
 * Private wiring of @noble/ed25519 3.x: its synchronous API needs a SHA-512
 * implementation, supplied once here from @noble/hashes (the library's
 * documented set-up). Every Ed25519 call in `src/ump/` goes through this file.
 */

import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";

ed.hashes.sha512 = sha512;

/** Public key (32 bytes) of a 32-byte Ed25519 seed. */
export function edPublicKey(seed: Uint8Array): Uint8Array {
  return ed.getPublicKey(seed);
}

/** Ed25519 signature (64 bytes) of `message` with a 32-byte seed. */
export function edSign(message: Uint8Array, seed: Uint8Array): Uint8Array {
  return ed.sign(message, seed);
}

/** Strict RFC 8032 verification (non-canonical encodings rejected); never throws. */
export function edVerify(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): boolean {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  try {
    return ed.verify(signature, message, publicKey, { zip215: false });
  } catch {
    return false;
  }
}

/**
 * Same check as `edVerify`, through Web Crypto's native Ed25519 when the runtime
 * has it (about 25× faster than the pure-JS path on this project's hardware),
 * falling back to @noble/ed25519 otherwise. Never throws.
 */
export async function edVerifyAsync(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array): Promise<boolean> {
  if (signature.length !== 64 || publicKey.length !== 32) return false;
  let key: CryptoKey;
  try {
    key = await crypto.subtle.importKey("raw", publicKey as BufferSource, { name: "Ed25519" }, false, ["verify"]);
  } catch {
    return edVerify(signature, message, publicKey); // no native Ed25519, or a key Web Crypto refuses to import
  }
  try {
    return await crypto.subtle.verify("Ed25519", key, signature as BufferSource, message as BufferSource);
  } catch {
    return false;
  }
}
