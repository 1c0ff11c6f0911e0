/**
 * XXH3-64 content hash for exact-duplicate detection (SPEC §2.1), through
 * hash-wasm's WASM build so it runs identically on Node and Deno.
 * Serialized as 16 lowercase hex digits (canonical big-endian).
 */
import { xxhash3 } from "hash-wasm";

/** XXH3-64 of the UTF-8 bytes (or raw bytes) with seed 0, as 16 hex digits. */
export function xxh3Hex(data: string | Uint8Array): Promise<string> {
  return xxhash3(data);
}
