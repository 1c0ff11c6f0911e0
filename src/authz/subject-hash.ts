/**
 * Hashed subjects for refusal audit rows (SPEC §5 item 3): the audit log
 * never stores a raw subject. SHA-256 over a domain-separated prefix, hex.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

/** `sha256("cairn-subject\0" + subject)` in lowercase hex. */
export function hashSubject(subject: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(`cairn-subject\0${subject}`)));
}
