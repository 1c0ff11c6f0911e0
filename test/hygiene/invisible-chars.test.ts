import { describe, expect, it } from "vitest";
import { INVISIBLE_RANGES, isInvisible, stripInvisible } from "../../src/hygiene/invisible-chars.ts";

// SPEC §1, written out independently of the module's table.
const SPEC_SINGLES = [0x200e, 0x200f, 0x061c, 0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x00ad, 0x034f, 0x180e, 0x115f, 0x1160];
const SPEC_RANGES: [number, number][] = [
  [0xe0000, 0xe007f],
  [0xfe00, 0xfe0f],
  [0xe0100, 0xe01ef],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0x2061, 0x2063],
  [0xfff9, 0xfffb],
];
const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;
const specListed = (cp: number) => SPEC_SINGLES.includes(cp) || SPEC_RANGES.some(([a, b]) => cp >= a && cp <= b);

describe("stripInvisible (SPEC §1 invisible set)", () => {
  const everyListed: number[] = [...SPEC_SINGLES];
  for (const [a, b] of SPEC_RANGES) for (let cp = a; cp <= b; cp++) everyListed.push(cp);

  it("removes every listed code point", () => {
    for (const cp of everyListed) {
      expect(stripInvisible(`a${String.fromCodePoint(cp)}b`), hex(cp)).toBe("ab");
      expect(isInvisible(cp), hex(cp)).toBe(true);
    }
  });

  for (const [a, b] of SPEC_RANGES) {
    it(`covers ${hex(a)}..${hex(b)} up to its edges and not one past them`, () => {
      expect(stripInvisible(String.fromCodePoint(a))).toBe("");
      expect(stripInvisible(String.fromCodePoint(b))).toBe("");
      for (const outside of [a - 1, b + 1]) {
        if (specListed(outside)) continue; // adjacent to another listed point (e.g. 2060 next to 2061)
        expect(stripInvisible(`x${String.fromCodePoint(outside)}`), hex(outside)).toBe(`x${String.fromCodePoint(outside)}`);
      }
    });
  }

  it("keeps the neighbours of each single listed code point", () => {
    for (const cp of SPEC_SINGLES) {
      for (const n of [cp - 1, cp + 1]) {
        if (specListed(n)) continue;
        expect(isInvisible(n), hex(n)).toBe(false);
      }
    }
  });

  it("matches the spec exactly: the module's table lists the same code points", () => {
    const fromModule = new Set<number>();
    for (const [a, b] of INVISIBLE_RANGES) for (let cp = a; cp <= b; cp++) fromModule.add(cp);
    expect([...fromModule].sort((x, y) => x - y)).toEqual([...new Set(everyListed)].sort((x, y) => x - y));
  });

  it("keeps NBSP, ordinary and CJK spaces, tab and newline", () => {
    const text = "a\u00a0b c\u3000d\te\nf\u2002g";
    expect(stripInvisible(text)).toBe(text);
  });

  it("leaves surrogate pairs of visible astral characters intact", () => {
    expect(stripInvisible("😀\u200b𝔘")).toBe("😀𝔘");
  });
});
