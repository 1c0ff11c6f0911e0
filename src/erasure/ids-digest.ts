/** SHA-256 (hex) of a sorted id list written as decimal numbers joined by commas: a compact audit-detail binding for long lists. */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** Digest of the ids in ascending order. */
export function idsDigest(ids: readonly number[]): string {
  return bytesToHex(sha256(new TextEncoder().encode([...ids].sort((a, b) => a - b).join(","))));
}
