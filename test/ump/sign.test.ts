import * as ed from "@noble/ed25519";
import { blake3 } from "@noble/hashes/blake3.js";
import { describe, expect, it } from "vitest";
import { edPublicKey, edSign, edVerify, edVerifyAsync } from "../../src/ump/_ed25519.ts";
import { contentHash } from "../../src/ump/content-hash.ts";
import { didFromSeed } from "../../src/ump/did-key.ts";
import { signContentHash, signRecord, verifyContentHashSignature, verifyRecord as verifySync, verifyRecordAsync, type VerifyRecordOptions, type VerifyRecordResult } from "../../src/ump/sign.ts";
import { hasVector, readVector } from "./_vectors.ts";

const hexBytes = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));
const seedA = hexBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
const seedB = new Uint8Array(32).fill(7);

const record = {
  ump: "1.0",
  id: "urn:ump:annvrseteoq5l7k6az72pjesighduj6iuxp5gcp3wyuprlmvguxa",
  kind: "procedural",
  body: { text: "Always run `pnpm gate` before handoff.\n— ünïcödé 😀", structured: { steps: [1, 2.5, null] } },
  scope: { owner: didFromSeed(seedA), project: "github.com/example/project", visibility: "shared" },
  time: { created: "2026-06-04T10:00:00Z", observed: "2026-06-04T09:58:00Z", valid_from: "2026-06-04T00:00:00Z", valid_to: null },
  provenance: { actor: didFromSeed(seedA), actor_kind: "user", method: "user_correction" },
};

describe("Ed25519 known answers (SUPERCOP format, first lines are RFC 8032 §7.1)", () => {
  const present = hasVector("ed25519/supercop-first64.txt");
  it.skipIf(!present)("derives the public key, reproduces the signature and verifies it for every line (pure JS and Web Crypto)", async () => {
    const lines = readVector("ed25519/supercop-first64.txt").split("\n").filter((l) => l.trim() !== "");
    expect(lines.length).toBe(64);
    for (const [n, line] of lines.entries()) {
      const [sk, pk, msg, sigAndMsg] = line.split(":") as [string, string, string, string];
      const seed = hexBytes(sk.slice(0, 64));
      const message = hexBytes(msg);
      const signature = hexBytes(sigAndMsg.slice(0, 128));
      expect(Buffer.from(edPublicKey(seed)).toString("hex"), `line ${n + 1}`).toBe(pk);
      expect(Buffer.from(edSign(message, seed)).toString("hex"), `line ${n + 1}`).toBe(sigAndMsg.slice(0, 128));
      expect(edVerify(signature, message, hexBytes(pk))).toBe(true);
      expect(await edVerifyAsync(signature, message, hexBytes(pk))).toBe(true);
      const tampered = message.length > 0 ? Uint8Array.from(message, (b, i) => (i === 0 ? b ^ 1 : b)) : new Uint8Array([0]);
      expect(edVerify(signature, tampered, hexBytes(pk))).toBe(false);
      expect(await edVerifyAsync(signature, tampered, hexBytes(pk))).toBe(false);
    }
  });
});

/**
 * A verifier written from the UMP notes alone, sharing no code with src/ump:
 * JCS of the record without integrity → UTF-8 → BLAKE3-256 → "blake3:" + base32;
 * then Ed25519-verify(base64 signature, BLAKE3-256(UTF-8(content_hash)), key from did:key).
 */
async function independentVerify(rec: Record<string, unknown>): Promise<boolean> {
  const jcs = (v: unknown): string => {
    if (Array.isArray(v)) return "[" + v.map(jcs).join(",") + "]";
    if (v !== null && typeof v === "object") {
      const o = v as Record<string, unknown>;
      return "{" + Object.keys(o).sort().map((k) => JSON.stringify(k) + ":" + jcs(o[k])).join(",") + "}";
    }
    return JSON.stringify(v);
  };
  const b32 = (bytes: Uint8Array): string => {
    const bits = [...bytes].map((b) => b.toString(2).padStart(8, "0")).join("");
    return (bits.match(/.{1,5}/g) ?? []).map((c) => "abcdefghijklmnopqrstuvwxyz234567"[parseInt(c.padEnd(5, "0"), 2)]).join("");
  };
  const b58decode = (s: string): Uint8Array => {
    const alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let n = 0n;
    for (const c of s) n = n * 58n + BigInt(alphabet.indexOf(c));
    const hex = n.toString(16).padStart(68, "0"); // 34 bytes: 0xed 0x01 + key
    return Uint8Array.from(Buffer.from(hex, "hex"));
  };
  const { integrity, ...rest } = rec as { integrity: { content_hash: string; signature: string; signer: string } };
  const hash = "blake3:" + b32(blake3(new TextEncoder().encode(jcs(rest))));
  if (hash !== integrity.content_hash) return false;
  const multicodec = b58decode(integrity.signer.slice("did:key:z".length));
  if (multicodec[0] !== 0xed || multicodec[1] !== 0x01) return false;
  const sig = Uint8Array.from(Buffer.from(integrity.signature.slice("ed25519:".length), "base64"));
  // verifyAsync hashes with WebCrypto SHA-512: independent of the sync wiring in src/ump/_ed25519.ts.
  return ed.verifyAsync(sig, blake3(new TextEncoder().encode(hash)), multicodec.slice(2));
}

type Verify = (record: object, opts?: VerifyRecordOptions) => Promise<VerifyRecordResult>;
const variants: [string, Verify][] = [
  ["verifyRecord (sync, pure JS)", async (r, o) => verifySync(r, o)],
  ["verifyRecordAsync (Web Crypto)", verifyRecordAsync],
];

describe.each(variants)("signRecord and %s", (_name, verifyRecord) => {
  it("produces the integrity block of the UMP notes", async () => {
    const signed = signRecord(record, seedA);
    expect(signed.integrity.content_hash).toBe(contentHash(record));
    expect(signed.integrity.signer).toBe(didFromSeed(seedA));
    expect(signed.integrity.signer.startsWith("did:key:z6Mk")).toBe(true);
    expect(signed.integrity.signature).toMatch(/^ed25519:[A-Za-z0-9+/]{86}==$/);
    expect(await verifyRecord(signed)).toEqual({ ok: true, signed: true });
  });

  it("is verified by an independent verifier written from the notes", async () => {
    const signed = signRecord(record, seedA);
    expect(await independentVerify(JSON.parse(JSON.stringify(signed)))).toBe(true);
    const tampered = { ...signed, body: { ...signed.body, text: "Always run npm." } };
    expect(await independentVerify(tampered)).toBe(false);
  });

  it("verifies a record signed by the independent steps", async () => {
    // Build the signature by hand from the notes and check that verifyRecord accepts it.
    const hash = contentHash(record);
    const sig = await ed.signAsync(blake3(new TextEncoder().encode(hash)), seedB);
    const signed = { ...record, integrity: { content_hash: hash, signature: "ed25519:" + Buffer.from(sig).toString("base64"), signer: didFromSeed(seedB) } };
    expect(await verifyRecord(signed)).toEqual({ ok: true, signed: true });
  });

  it("detects tampering, a swapped signer and malformed integrity", async () => {
    const signed = signRecord(record, seedA);
    expect(await verifyRecord({ ...signed, kind: "semantic" })).toEqual({ ok: false, reason: "hash_mismatch" });
    expect(await verifyRecord({ ...signed, integrity: { ...signed.integrity, signer: didFromSeed(seedB) } })).toEqual({ ok: false, reason: "signature_invalid" });
    const flipped = signed.integrity.signature.replace(/^ed25519:(.)/, (_m, c: string) => "ed25519:" + (c === "A" ? "B" : "A"));
    expect(await verifyRecord({ ...signed, integrity: { ...signed.integrity, signature: flipped } })).toEqual({ ok: false, reason: "signature_invalid" });
    expect(await verifyRecord({ ...signed, integrity: { ...signed.integrity, signature: "rsa:abc" } })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(await verifyRecord({ ...signed, integrity: { ...signed.integrity, signature: "ed25519:not base64" } })).toEqual({ ok: false, reason: "malformed_signature" });
    expect(await verifyRecord({ ...signed, integrity: { ...signed.integrity, signer: "did:web:example.com" } })).toEqual({ ok: false, reason: "bad_signer" });
    expect(await verifyRecord(record)).toEqual({ ok: false, reason: "missing_integrity" });
  });

  it("accepts an unsigned L2 record unless a signature is required, and enforces trusted signers", async () => {
    const l2 = { ...record, integrity: { content_hash: contentHash(record) } };
    expect(await verifyRecord(l2)).toEqual({ ok: true, signed: false });
    expect(await verifyRecord(l2, { requireSignature: true })).toEqual({ ok: false, reason: "unsigned" });
    const signed = signRecord(record, seedA);
    expect(await verifyRecord(signed, { trustedSigners: [didFromSeed(seedA)] })).toEqual({ ok: true, signed: true });
    expect(await verifyRecord(signed, { trustedSigners: [didFromSeed(seedB)] })).toEqual({ ok: false, reason: "untrusted_signer" });
  });

  it("re-signing replaces the old integrity block", async () => {
    const once = signRecord(record, seedA);
    const twice = signRecord(once, seedB);
    expect(twice.integrity.content_hash).toBe(once.integrity.content_hash);
    expect(twice.integrity.signer).toBe(didFromSeed(seedB));
    expect((await verifyRecord(twice)).ok).toBe(true);
  });

  it("signs and verifies bare content-hash strings (shared with audit rows)", () => {
    const sig = signContentHash("blake3:abc", seedA);
    expect(verifyContentHashSignature("blake3:abc", sig, didFromSeed(seedA))).toBe(true);
    expect(verifyContentHashSignature("blake3:abd", sig, didFromSeed(seedA))).toBe(false);
  });
});
