/**
 * The operator's `did:key` for a seed, remembered for the last seed seen:
 * deriving it is an Ed25519 scalar multiplication (about 2 ms in pure JS),
 * and every request resolves it. A rotated key is a different seed, so the
 * cache never serves a stale identity. One cache per service (no module state).
 */
import { didFromSeed } from "./did-key.ts";

/** Returns a `didFromSeed` that remembers its most recent seed. */
export function createDidCache(): (seed: Uint8Array) => string {
  let last: { seed: Uint8Array; did: string } | undefined;
  return (seed) => {
    if (last && sameBytes(last.seed, seed)) return last.did;
    const did = didFromSeed(seed);
    last = { seed: seed.slice(), did };
    return did;
  };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}
