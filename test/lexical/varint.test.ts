import { describe, expect, it } from "vitest";
import { base64ToBytes, base64ToU32, bytesToBase64, u32ToBase64 } from "../../src/lexical/base64.ts";
import { decodeVarints, encodeVarints } from "../../src/lexical/varint.ts";

describe("varint and base64 codecs", () => {
  it("round-trips 32-bit values of every encoded width", () => {
    const values = Uint32Array.from([0, 1, 127, 128, 16383, 16384, 2097151, 2097152, 268435455, 268435456, 0xffffffff]);
    const bytes = encodeVarints(values);
    expect(bytes.length).toBe(1 + 1 + 1 + 2 + 2 + 3 + 3 + 4 + 4 + 5 + 5);
    expect(decodeVarints(bytes, values.length)).toEqual(values);
  });

  it("rejects truncated input and leftover bytes", () => {
    const bytes = encodeVarints(Uint32Array.from([300, 5]));
    expect(decodeVarints(bytes.subarray(0, 1), 1)).toBeNull();
    expect(decodeVarints(bytes, 1)).toBeNull();
    expect(decodeVarints(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1)).toBeNull();
  });

  it("round-trips bytes and little-endian words through base64", () => {
    const bytes = Uint8Array.from({ length: 70000 }, (_, i) => (i * 31) & 0xff);
    expect(base64ToBytes(bytesToBase64(bytes))).toEqual(bytes);
    expect(u32ToBase64(Uint32Array.from([1]))).toBe(bytesToBase64(Uint8Array.from([1, 0, 0, 0])));
    expect(base64ToU32(u32ToBase64(Uint32Array.from([7, 0xffffffff])))).toEqual(Uint32Array.from([7, 0xffffffff]));
    expect(base64ToU32("AAA=")).toBeNull();
    expect(base64ToBytes("not base64!")).toBeNull();
  });
});
