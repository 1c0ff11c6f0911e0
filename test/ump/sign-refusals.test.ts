import * as ed from "@noble/ed25519";
import { blake3 } from "@noble/hashes/blake3.js";
import { describe, expect, it } from "vitest";
import { contentHash } from "../../src/ump/content-hash.ts";
import { didFromSeed } from "../../src/ump/did-key.ts";
import { signBytes, signContentHash, signRecord, verifyBytesAsync, verifyContentHashSignature, verifyRecord, verifyRecordAsync, type VerifyRecordOptions, type VerifyRecordResult } from "../../src/ump/sign.ts";

// UMP signatures that must verify and must fail (SPEC §2.8, §2.10; UMP notes "Hashing, ids and signatures"), beyond
// the main sign.test.ts: half-present integrity blocks, records that cannot be hashed, and the bare-hash and raw-byte
// signatures used by audit rows and parcel manifests.

const seedA = new Uint8Array(32).fill(21);
const seedB = new Uint8Array(32).fill(22);
const didA = didFromSeed(seedA);
const utf8 = (s: string) => new TextEncoder().encode(s);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

const record = {
  ump: "1.0",
  kind: "semantic",
  body: { text: "The heron pager rotates weekly." },
  scope: { owner: didA, visibility: "private" },
  time: { created: "2026-06-04T10:00:00Z" },
  provenance: { actor: didA, actor_kind: "user", method: "user_correction" },
};

type Verify = (record: object, opts?: VerifyRecordOptions) => Promise<VerifyRecordResult>;
const variants: [string, Verify][] = [
  ["verifyRecord (sync)", async (r, o) => verifyRecord(r, o)],
  ["verifyRecordAsync (Web Crypto)", verifyRecordAsync],
];

describe.each(variants)("%s", (_name, verify) => {
  const signed = signRecord(record, seedA);
  const withIntegrity = (integrity: unknown) => ({ ...record, integrity });

  it("reports an integrity block that is not an object or has no string content hash as missing", async () => {
    for (const integrity of [null, "blake3:abc", 7, {}, { content_hash: 5 }, { signature: signed.integrity.signature, signer: didA }]) {
      expect(await verify(withIntegrity(integrity)), JSON.stringify(integrity)).toEqual({ ok: false, reason: "missing_integrity" });
    }
  });

  it("reports a record that cannot be canonicalised as a hash mismatch instead of throwing", async () => {
    const unhashable = { ...record, body: { text: "x", weight: Number.NaN }, integrity: signed.integrity };
    expect(await verify(unhashable)).toEqual({ ok: false, reason: "hash_mismatch" });
  });

  it("refuses half a signature: a signature without signer, a signer without signature, and a non-string signature", async () => {
    const hash = signed.integrity.content_hash;
    expect(await verify(withIntegrity({ content_hash: hash, signature: signed.integrity.signature }))).toEqual({ ok: false, reason: "bad_signer" });
    expect(await verify(withIntegrity({ content_hash: hash, signer: didA }))).toEqual({ ok: false, reason: "malformed_signature" });
    expect(await verify(withIntegrity({ content_hash: hash, signature: 12, signer: didA }))).toEqual({ ok: false, reason: "malformed_signature" });
    expect(await verify(withIntegrity({ content_hash: hash, signature: signed.integrity.signature, signer: 12 }))).toEqual({ ok: false, reason: "bad_signer" });
  });

  it("without requireSignature an L2 record passes unsigned; with it set to false explicitly too", async () => {
    const l2 = withIntegrity({ content_hash: contentHash(record) });
    expect(await verify(l2, { requireSignature: false })).toEqual({ ok: true, signed: false });
    // A signed record passes whether or not a signature is required.
    expect(await verify(signed, { requireSignature: true })).toEqual({ ok: true, signed: true });
  });

  it("checks the trusted-signer list only when one is given, and the signature even when the signer is trusted", async () => {
    expect(await verify(signed, { trustedSigners: [didFromSeed(seedB), didA] })).toEqual({ ok: true, signed: true });
    expect(await verify(signed, { trustedSigners: [] })).toEqual({ ok: false, reason: "untrusted_signer" });
    const other = signRecord(record, seedB);
    const swapped = withIntegrity({ ...signed.integrity, signature: other.integrity.signature });
    expect(await verify(swapped, { trustedSigners: [didA] })).toEqual({ ok: false, reason: "signature_invalid" });
  });

  it("refuses a signature made over the content hash itself rather than its BLAKE3 digest", async () => {
    const hash = contentHash(record);
    const wrong = b64(await ed.signAsync(utf8(hash), seedA));
    expect(await verify(withIntegrity({ content_hash: hash, signature: `ed25519:${wrong}`, signer: didA }))).toEqual({ ok: false, reason: "signature_invalid" });
    const right = b64(await ed.signAsync(blake3(utf8(hash)), seedA));
    expect(await verify(withIntegrity({ content_hash: hash, signature: `ed25519:${right}`, signer: didA }))).toEqual({ ok: true, signed: true });
  });
});

describe("signRecord", () => {
  it("leaves the input untouched and hashes the record without its old integrity block", () => {
    const copy = JSON.parse(JSON.stringify(record));
    const signed = signRecord({ ...record, integrity: { content_hash: "blake3:stale" } }, seedA);
    expect(record).toEqual(copy);
    expect(signed.integrity).toEqual({ content_hash: contentHash(record), signature: signContentHash(contentHash(record), seedA), signer: didA });
    expect(Object.keys(signed).sort()).toEqual([...Object.keys(record), "integrity"].sort());
  });
});

describe("bare content-hash signatures (audit rows)", () => {
  const sig = signContentHash("blake3:abc", seedA);

  it("is ed25519:<padded base64> of Ed25519 over BLAKE3(hash), checkable with any Ed25519 library", async () => {
    expect(sig).toMatch(/^ed25519:[A-Za-z0-9+/]{86}==$/);
    const raw = Buffer.from(sig.slice("ed25519:".length), "base64");
    expect(await ed.verifyAsync(raw, blake3(utf8("blake3:abc")), ed.getPublicKey(seedA))).toBe(true);
  });

  it("fails for another signer, a wrong prefix, a non-string, bad base64 and a signer that is not a did:key", () => {
    expect(verifyContentHashSignature("blake3:abc", sig, didA)).toBe(true);
    expect(verifyContentHashSignature("blake3:abc", sig, didFromSeed(seedB))).toBe(false);
    expect(verifyContentHashSignature("blake3:abc", sig.replace("ed25519:", "ed448:"), didA)).toBe(false);
    expect(verifyContentHashSignature("blake3:abc", sig.slice("ed25519:".length), didA)).toBe(false);
    expect(verifyContentHashSignature("blake3:abc", 42 as never, didA)).toBe(false);
    expect(verifyContentHashSignature("blake3:abc", "ed25519:@@@@", didA)).toBe(false);
    expect(verifyContentHashSignature("blake3:abc", sig, "did:web:example.com")).toBe(false);
  });
});

describe("raw-byte signatures (parcel manifests, SPEC §2.10)", () => {
  const message = utf8('{"parcel":"p1","files":3}');
  const sig = signBytes(message, seedA);

  it("signs the bytes themselves, checkable with any Ed25519 library, and verifies", async () => {
    expect(sig).toMatch(/^ed25519:[A-Za-z0-9+/]{86}==$/);
    expect(await ed.verifyAsync(Buffer.from(sig.slice(8), "base64"), message, ed.getPublicKey(seedA))).toBe(true);
    expect(await verifyBytesAsync(sig, message, didA)).toBe(true);
  });

  it("fails for changed bytes, another signer, a wrong prefix, non-strings, bad base64 and a bad did, without throwing", async () => {
    expect(await verifyBytesAsync(sig, utf8('{"parcel":"p1","files":4}'), didA)).toBe(false);
    expect(await verifyBytesAsync(sig, message, didFromSeed(seedB))).toBe(false);
    expect(await verifyBytesAsync(sig.replace("ed25519:", "ED25519:"), message, didA)).toBe(false);
    expect(await verifyBytesAsync(undefined, message, didA)).toBe(false);
    expect(await verifyBytesAsync(sig, message, undefined)).toBe(false);
    expect(await verifyBytesAsync(sig, message, 7)).toBe(false);
    expect(await verifyBytesAsync("ed25519:!!", message, didA)).toBe(false);
    expect(await verifyBytesAsync(sig, message, "did:key:z6MkBroken")).toBe(false);
  });
});
