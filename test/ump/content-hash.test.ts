import { describe, expect, it } from "vitest";
import { base32Decode } from "../../src/ump/base32.ts";
import { blake3Digest, contentHash, randomRecordId, recordId, withContentHash } from "../../src/ump/content-hash.ts";
import { hasVector, readVector } from "./_vectors.ts";

const record = {
  ump: "1.0",
  kind: "semantic",
  body: { text: "Use pnpm, never npm, in this repo." },
  scope: { owner: "did:key:z6MkiTBz1ymuepAQ4HEHYSF1H8quG5GLVVQR3djdX3mDooWp", visibility: "private" },
  time: { created: "2026-06-04T10:00:00Z", observed: "2026-06-04T10:00:00Z", valid_from: "2026-06-04T10:00:00Z", valid_to: null },
};

describe("BLAKE3 known answers", () => {
  const present = hasVector("blake3.json");
  it.skipIf(!present)("matches every hash case of the official BLAKE3 test vectors (first 32 bytes)", () => {
    const { cases } = JSON.parse(readVector("blake3.json")) as { cases: { input_len: number; hash: string }[] };
    expect(cases.length).toBeGreaterThan(30);
    for (const c of cases) {
      const input = Uint8Array.from({ length: c.input_len }, (_, i) => i % 251);
      expect(Buffer.from(blake3Digest(input)).toString("hex"), `input_len ${c.input_len}`).toBe(c.hash.slice(0, 64));
    }
  });
});

describe("contentHash and recordId", () => {
  it("is blake3: plus 52 lowercase base32 characters of a 32-byte digest", () => {
    const hash = contentHash(record);
    expect(hash).toMatch(/^blake3:[a-z2-7]{52}$/);
    expect(base32Decode(hash.slice(7))).toHaveLength(32);
  });

  it("ignores the integrity member and member order, but not content", () => {
    const reordered = { time: record.time, scope: record.scope, body: record.body, kind: record.kind, ump: record.ump };
    const withIntegrity = { ...record, integrity: { content_hash: "blake3:aaaa", signature: "ed25519:x", signer: "did:key:z6Mk" } };
    expect(contentHash(reordered)).toBe(contentHash(record));
    expect(contentHash(withIntegrity)).toBe(contentHash(record));
    expect(contentHash({ ...record, body: { text: "Use npm." } })).not.toBe(contentHash(record));
    expect(contentHash({ ...record, time: { ...record.time, valid_to: "2027-01-01T00:00:00Z" } })).not.toBe(contentHash(record));
  });

  it("hashes the UTF-8 bytes of the JCS form", () => {
    const jcs = '{"a":"é","b":[1,2]}';
    const viaModule = contentHash({ b: [1, 2], a: "é" });
    const direct = blake3Digest(new TextEncoder().encode(jcs));
    expect(base32Decode(viaModule.slice(7))).toEqual(direct);
  });

  it("derives an id equal to the content hash of a record that has no id yet, and stable once the id is set", () => {
    const id = recordId(record);
    expect(id).toBe("urn:ump:" + contentHash(record).slice("blake3:".length));
    expect(recordId({ ...record, id })).toBe(id);
    expect(recordId({ ...record, id, integrity: { content_hash: "blake3:x" } })).toBe(id);
  });

  it("mints random L1 ids of 128 bits in the same alphabet", () => {
    const a = randomRecordId();
    expect(a).toMatch(/^urn:ump:[a-z2-7]{26}$/);
    expect(base32Decode(a.slice(8))).toHaveLength(16);
    expect(randomRecordId()).not.toBe(a);
  });

  it("attaches an unsigned integrity block for L2", () => {
    const hashed = withContentHash({ ...record, integrity: { content_hash: "stale" } });
    expect(hashed.integrity).toEqual({ content_hash: contentHash(record) });
  });
});
