/**
 * Constant-time secret comparison (SPEC §5 item 1). Both sides are hashed
 * with SHA-256 first, so the loop always runs over 32 bytes and neither the
 * content nor the length of the configured secret leaks through timing.
 */
import { sha256 } from "@noble/hashes/sha2.js";

const encoder = new TextEncoder();

/** True when `presented` equals `expected`; never short-circuits on the first differing byte. */
export function timingSafeEqual(presented: string, expected: string): boolean {
  const a = sha256(encoder.encode(presented));
  const b = sha256(encoder.encode(expected));
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
