import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode } from "../../src/ump/base32.ts";
import { base58Decode, base58Encode } from "../../src/ump/base58.ts";
import { base64Decode, base64Encode, base64UrlDecode, base64UrlEncode } from "../../src/ump/base64.ts";

const utf8 = (s: string) => new TextEncoder().encode(s);
const hex = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));

function randomBuffers(count: number): Uint8Array[] {
  let seed = 7;
  const next = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;
  return Array.from({ length: count }, (_, n) => Uint8Array.from({ length: n % 70 }, () => (n % 5 === 0 ? 0 : next())));
}

describe("base32 (RFC 4648, lowercase, no padding)", () => {
  // RFC 4648 §10 test vectors, lowercased with padding removed.
  it.each([
    ["", ""],
    ["f", "my"],
    ["fo", "mzxq"],
    ["foo", "mzxw6"],
    ["foob", "mzxw6yq"],
    ["fooba", "mzxw6ytb"],
    ["foobar", "mzxw6ytboi"],
  ])("encodes %j as %j and back", (plain, encoded) => {
    expect(base32Encode(utf8(plain))).toBe(encoded);
    expect(base32Decode(encoded)).toEqual(utf8(plain));
  });

  it("round-trips arbitrary bytes", () => {
    for (const bytes of randomBuffers(200)) expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
  });

  it("rejects uppercase, padding, impossible lengths and non-zero trailing bits", () => {
    expect(base32Decode("MZXW6")).toBeNull();
    expect(base32Decode("my======")).toBeNull();
    expect(base32Decode("m")).toBeNull();
    expect(base32Decode("mz")).toBeNull(); // "f" is "my": the last 2 bits of "z" are not zero
    expect(base32Decode("mzx1")).toBeNull();
  });
});

describe("base58btc", () => {
  // Vectors from the IETF base58 draft (draft-msporny-base58).
  it.each([
    ["Hello World!", "2NEpo7TZRRrLZSi2U"],
    ["The quick brown fox jumps over the lazy dog.", "USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z"],
  ])("encodes %j", (plain, encoded) => {
    expect(base58Encode(utf8(plain))).toBe(encoded);
    expect(base58Decode(encoded)).toEqual(utf8(plain));
  });

  it("keeps leading zero bytes as leading 1s", () => {
    expect(base58Encode(hex("0000287fb4cd"))).toBe("11233QC4");
    expect(base58Decode("11233QC4")).toEqual(hex("0000287fb4cd"));
    expect(base58Encode(new Uint8Array(3))).toBe("111");
  });

  it("round-trips arbitrary bytes and rejects characters outside the alphabet", () => {
    for (const bytes of randomBuffers(200)) expect(base58Decode(base58Encode(bytes))).toEqual(bytes);
    for (const bad of ["0", "O", "I", "l", "+"]) expect(base58Decode("2NEp" + bad)).toBeNull();
  });
});

describe("base64 and base64url", () => {
  // RFC 4648 §10 vectors.
  it.each([
    ["", ""],
    ["f", "Zg=="],
    ["fo", "Zm8="],
    ["foo", "Zm9v"],
    ["foob", "Zm9vYg=="],
    ["fooba", "Zm9vYmE="],
    ["foobar", "Zm9vYmFy"],
  ])("encodes %j as %j (standard, padded)", (plain, encoded) => {
    expect(base64Encode(utf8(plain))).toBe(encoded);
    expect(base64Decode(encoded)).toEqual(utf8(plain));
    expect(base64UrlEncode(utf8(plain))).toBe(encoded.replace(/=+$/, ""));
  });

  it("agrees with the platform encoder on arbitrary bytes", () => {
    for (const bytes of randomBuffers(200)) {
      expect(base64Encode(bytes)).toBe(Buffer.from(bytes).toString("base64"));
      expect(base64UrlEncode(bytes)).toBe(Buffer.from(bytes).toString("base64url"));
      expect(base64Decode(base64Encode(bytes))).toEqual(bytes);
      expect(base64UrlDecode(base64UrlEncode(bytes))).toEqual(bytes);
    }
  });

  it("uses - and _ in the url alphabet", () => {
    expect(base64UrlEncode(hex("fbff"))).toBe("-_8");
    expect(base64Encode(hex("fbff"))).toBe("+/8=");
  });

  it("rejects non-canonical input", () => {
    expect(base64Decode("Zg")).toBeNull(); // missing padding
    expect(base64Decode("Zh==")).toBeNull(); // stray low bits
    expect(base64Decode("Z===")).toBeNull();
    expect(base64Decode("-_8=")).toBeNull();
    expect(base64UrlDecode("Zg==")).toBeNull(); // padding not allowed
    expect(base64UrlDecode("+/8")).toBeNull();
    expect(base64UrlDecode("Z")).toBeNull();
  });
});
