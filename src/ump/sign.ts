/**
 * Record signatures (SPEC §2.8, §5 item 5; UMP notes "Hashing, ids and
 * signatures"): `signature = "ed25519:" + base64(Ed25519-sign(BLAKE3-256(UTF-8(content_hash))))`
 * with standard padded base64, `signer` = the operator's `did:key`.
 * Verification recomputes the hash, compares it, then checks the signature
 * against the key decoded from `signer`.
 */

import { base64Decode, base64Encode } from "./base64.ts";
import { blake3Digest, contentHash, withoutIntegrity } from "./content-hash.ts";
import { didFromSeed, publicKeyFromDid } from "./did-key.ts";
import { edSign, edVerify, edVerifyAsync } from "./_ed25519.ts";
import type { UmpIntegrity } from "./types.ts";

/** Why a record failed verification. */
export type VerifyFailure =
  | "missing_integrity"
  | "hash_mismatch"
  | "unsigned"
  | "malformed_signature"
  | "bad_signer"
  | "untrusted_signer"
  | "signature_invalid";

/** Outcome of `verifyRecord`: `signed` is false for an L2 record carrying only a content hash. */
export type VerifyRecordResult = { ok: true; signed: boolean } | { ok: false; reason: VerifyFailure };

const encoder = new TextEncoder();

/** `"ed25519:<base64>"` signature of a content-hash string (also usable for audit-row hashes). */
export function signContentHash(hash: string, seed: Uint8Array): string {
  return "ed25519:" + base64Encode(edSign(blake3Digest(encoder.encode(hash)), seed));
}

/** True when `signature` is a valid `ed25519:<base64>` signature of `hash` by the `did:key` `signer`. */
export function verifyContentHashSignature(hash: string, signature: string, signer: string): boolean {
  if (typeof signature !== "string" || !signature.startsWith("ed25519:")) return false;
  const sig = base64Decode(signature.slice("ed25519:".length));
  const publicKey = publicKeyFromDid(signer);
  if (!sig || !publicKey) return false;
  return edVerify(sig, blake3Digest(encoder.encode(hash)), publicKey);
}

/** Returns a copy of the record with a fresh signed `integrity` block (any previous one is replaced). */
export function signRecord<T extends object>(record: T, seed: Uint8Array): Omit<T, "integrity"> & { integrity: Required<UmpIntegrity> } {
  const content_hash = contentHash(record);
  const integrity = { content_hash, signature: signContentHash(content_hash, seed), signer: didFromSeed(seed) };
  return { ...withoutIntegrity(record), integrity };
}

/** Options of `verifyRecord`. */
export interface VerifyRecordOptions {
  /** Fail with `unsigned` when the record carries only a content hash (L3 posture). */
  requireSignature?: boolean;
  /** When given, a signed record must be signed by one of these `did:key`s. */
  trustedSigners?: readonly string[];
}

/**
 * Verifies a record's integrity. An L2 record that has only a content hash
 * passes with `signed: false` unless `requireSignature` is set. Synchronous,
 * pure JS; prefer `verifyRecordAsync` on hot paths.
 */
export function verifyRecord(record: object, opts: VerifyRecordOptions = {}): VerifyRecordResult {
  const step = checkBeforeSignature(record, opts);
  if ("ok" in step) return step;
  return edVerify(step.sig, step.digest, step.publicKey) ? { ok: true, signed: true } : { ok: false, reason: "signature_invalid" };
}

/** `verifyRecord` with the signature checked by native Web Crypto Ed25519 where available (same results, faster). */
export async function verifyRecordAsync(record: object, opts: VerifyRecordOptions = {}): Promise<VerifyRecordResult> {
  const step = checkBeforeSignature(record, opts);
  if ("ok" in step) return step;
  return (await edVerifyAsync(step.sig, step.digest, step.publicKey)) ? { ok: true, signed: true } : { ok: false, reason: "signature_invalid" };
}

type SignatureStep = { sig: Uint8Array; digest: Uint8Array; publicKey: Uint8Array };

// Everything up to the Ed25519 check: a final result, or the inputs of that check.
function checkBeforeSignature(record: object, opts: VerifyRecordOptions): VerifyRecordResult | SignatureStep {
  const integrity = (record as { integrity?: unknown }).integrity as Partial<UmpIntegrity> | undefined;
  if (!integrity || typeof integrity !== "object" || typeof integrity.content_hash !== "string") {
    return { ok: false, reason: "missing_integrity" };
  }
  let actual: string;
  try {
    actual = contentHash(record);
  } catch {
    return { ok: false, reason: "hash_mismatch" }; // not canonicalisable: cannot match any hash
  }
  if (actual !== integrity.content_hash) return { ok: false, reason: "hash_mismatch" };
  if (integrity.signature === undefined && integrity.signer === undefined) {
    return opts.requireSignature ? { ok: false, reason: "unsigned" } : { ok: true, signed: false };
  }
  if (typeof integrity.signature !== "string" || !integrity.signature.startsWith("ed25519:")) {
    return { ok: false, reason: "malformed_signature" };
  }
  const publicKey = typeof integrity.signer === "string" ? publicKeyFromDid(integrity.signer) : null;
  if (!publicKey) return { ok: false, reason: "bad_signer" };
  if (opts.trustedSigners && !opts.trustedSigners.includes(integrity.signer!)) return { ok: false, reason: "untrusted_signer" };
  const sig = base64Decode(integrity.signature.slice("ed25519:".length));
  if (!sig) return { ok: false, reason: "malformed_signature" };
  return { sig, digest: blake3Digest(encoder.encode(integrity.content_hash)), publicKey };
}

/** `"ed25519:<base64>"` signature of raw bytes (parcel manifests, SPEC §2.10): Ed25519 over the bytes themselves. */
export function signBytes(message: Uint8Array, seed: Uint8Array): string {
  return "ed25519:" + base64Encode(edSign(message, seed));
}

/** True when `signature` is a valid `ed25519:<base64>` signature of `message` by the `did:key` `signer`; never throws. */
export async function verifyBytesAsync(signature: unknown, message: Uint8Array, signer: unknown): Promise<boolean> {
  if (typeof signature !== "string" || !signature.startsWith("ed25519:") || typeof signer !== "string") return false;
  const sig = base64Decode(signature.slice("ed25519:".length));
  const publicKey = publicKeyFromDid(signer);
  if (!sig || !publicKey) return false;
  return await edVerifyAsync(sig, message, publicKey);
}
