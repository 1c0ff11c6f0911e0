/**
 * The operator identity as a `did:key` (SPEC §5 item 5; UMP notes "signer"):
 * `"did:key:z"` + base58btc(0xed 0x01 ‖ 32-byte Ed25519 public key), which
 * always starts `did:key:z6Mk`. Only the Ed25519 multicodec is accepted.
 */

import { base58Decode, base58Encode } from "./base58.ts";
import { edPublicKey } from "./_ed25519.ts";

const ED25519_MULTICODEC = [0xed, 0x01];
const DID_PREFIX = "did:key:z";

/** A fresh random 32-byte Ed25519 seed from the Web Crypto CSPRNG. */
export function generateSeed(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(32));
}

/** The 32-byte Ed25519 public key of a seed. */
export function publicKeyFromSeed(seed: Uint8Array): Uint8Array {
  return edPublicKey(seed);
}

/** `did:key:z6Mk…` of a 32-byte Ed25519 public key. */
export function didFromPublicKey(publicKey: Uint8Array): string {
  if (publicKey.length !== 32) throw new RangeError(`Ed25519 public key must be 32 bytes, got ${publicKey.length}`);
  const prefixed = new Uint8Array(34);
  prefixed.set(ED25519_MULTICODEC, 0);
  prefixed.set(publicKey, 2);
  return DID_PREFIX + base58Encode(prefixed);
}

/** `did:key:z6Mk…` of a 32-byte Ed25519 seed. */
export function didFromSeed(seed: Uint8Array): string {
  return didFromPublicKey(publicKeyFromSeed(seed));
}

/** The Ed25519 public key inside a `did:key`; `null` for anything else (other codecs, bad base58, fragments). */
export function publicKeyFromDid(did: string): Uint8Array | null {
  if (typeof did !== "string" || !did.startsWith(DID_PREFIX)) return null;
  const decoded = base58Decode(did.slice(DID_PREFIX.length));
  if (!decoded || decoded.length !== 34) return null;
  if (decoded[0] !== ED25519_MULTICODEC[0] || decoded[1] !== ED25519_MULTICODEC[1]) return null;
  return decoded.slice(2);
}
