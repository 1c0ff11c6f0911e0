import { describe, expect, it } from "vitest";
import { base58Decode } from "../../src/ump/base58.ts";
import { didFromPublicKey, didFromSeed, generateSeed, publicKeyFromDid, publicKeyFromSeed } from "../../src/ump/did-key.ts";
import { hasVector, readVector } from "./_vectors.ts";

const hexBytes = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

describe("did:key", () => {
  const present = hasVector("did-key/ed25519-x25519.json");

  it.skipIf(!present)("derives the W3C CCG did:key of every Ed25519 test seed", () => {
    const vectors = JSON.parse(readVector("did-key/ed25519-x25519.json")) as Record<
      string,
      { seed: string; verificationKeyPair: { publicKeyBase58?: string; publicKeyJwk?: { crv: string; x: string } } }
    >;
    const entries = Object.entries(vectors);
    expect(entries.length).toBeGreaterThanOrEqual(5);
    for (const [did, v] of entries) {
      const seed = hexBytes(v.seed);
      expect(didFromSeed(seed)).toBe(did);
      expect(did.startsWith("did:key:z6Mk")).toBe(true);
      // The vectors give the key either as base58 or as an Ed25519 JWK (base64url `x`).
      const { publicKeyBase58, publicKeyJwk } = v.verificationKeyPair;
      const expectedKey = publicKeyBase58 !== undefined
        ? base58Decode(publicKeyBase58)
        : Uint8Array.from(Buffer.from(publicKeyJwk!.x, "base64url"));
      expect(expectedKey).toHaveLength(32);
      expect(publicKeyFromSeed(seed)).toEqual(expectedKey);
      expect(publicKeyFromDid(did)).toEqual(expectedKey);
    }
  });

  it.skipIf(!hasVector("did-key/x25519.json"))("refuses X25519 did:keys (multicodec 0xec), which cannot verify signatures", () => {
    const doc = JSON.parse(readVector("did-key/x25519.json")) as { didDocument: Record<string, unknown> };
    const dids = Object.keys(doc.didDocument);
    expect(dids.length).toBeGreaterThan(0);
    for (const did of dids) expect(publicKeyFromDid(did)).toBeNull();
  });

  it("round-trips a fresh key and rejects malformed identifiers", () => {
    const seed = generateSeed();
    const did = didFromSeed(seed);
    expect(did).toMatch(/^did:key:z6Mk[1-9A-HJ-NP-Za-km-z]+$/);
    expect(publicKeyFromDid(did)).toEqual(publicKeyFromSeed(seed));
    expect(didFromPublicKey(publicKeyFromSeed(seed))).toBe(did);
    for (const bad of ["", "did:web:example.com", "did:key:6Mk", "did:key:z0OIl", did + "#frag", did.slice(0, -3), "did:key:z"]) {
      expect(publicKeyFromDid(bad), bad).toBeNull();
    }
    expect(() => didFromPublicKey(new Uint8Array(31))).toThrow(RangeError);
  });
});
