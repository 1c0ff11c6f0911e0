/**
 * Content hashing and content-addressed ids (SPEC §2.8; UMP notes "Hashing,
 * ids and signatures"): `content_hash = "blake3:" + base32(BLAKE3-256(UTF-8(JCS(record
 * without integrity))))`, lowercase RFC 4648 base32 without padding.
 */

import { blake3 } from "@noble/hashes/blake3.js";
import { base32Encode } from "./base32.ts";
import { canonicalBytes } from "./canonical-json.ts";

/** The record without its `integrity` member: exactly what the content hash covers. */
export function withoutIntegrity<T extends object>(record: T): Omit<T, "integrity"> {
  const { integrity: _ignored, ...rest } = record as T & { integrity?: unknown };
  return rest;
}

/** BLAKE3-256 digest of bytes (32 bytes). */
export function blake3Digest(bytes: Uint8Array): Uint8Array {
  return blake3(bytes);
}

/** `"blake3:<base32>"` of a record, ignoring its `integrity` member. */
export function contentHash(record: object): string {
  return "blake3:" + base32Encode(blake3(canonicalBytes(withoutIntegrity(record))));
}

/**
 * Content-addressed id `urn:ump:<base32>` (L2+). The hash is taken over the
 * record without `integrity` and without `id`, so for a record that has no id
 * yet it is the same base32 as its `content_hash`, and re-deriving the id of a
 * stored record gives the id it already carries.
 */
export function recordId(record: object): string {
  const { id: _ignored, ...rest } = withoutIntegrity(record) as Record<string, unknown>;
  return "urn:ump:" + base32Encode(blake3(canonicalBytes(rest)));
}

/** A random L1 id: `urn:ump:` + 128 random bits in lowercase unpadded base32. */
export function randomRecordId(): string {
  return "urn:ump:" + base32Encode(crypto.getRandomValues(new Uint8Array(16)));
}

/** The record with an unsigned integrity block `{content_hash}` (L2, no operator key). */
export function withContentHash<T extends object>(record: T): Omit<T, "integrity"> & { integrity: { content_hash: string } } {
  return { ...withoutIntegrity(record), integrity: { content_hash: contentHash(record) } };
}
