import { describe, expect, it } from "vitest";
import { stripControl } from "../../src/hygiene/control-chars.ts";

describe("stripControl (SPEC §1 control-character strip)", () => {
  it("removes every C0 control except tab and newline, CR included", () => {
    for (let cp = 0; cp <= 0x1f; cp++) {
      const c = String.fromCharCode(cp);
      const expected = cp === 0x09 || cp === 0x0a ? `a${c}b` : "ab";
      expect(stripControl(`a${c}b`), `U+${cp.toString(16)}`).toBe(expected);
    }
  });

  it("turns CRLF line ends into LF", () => {
    expect(stripControl("one\r\ntwo\r\n")).toBe("one\ntwo\n");
  });

  it("removes DEL and every C1 control", () => {
    expect(stripControl("a\u007fb")).toBe("ab");
    for (let cp = 0x80; cp <= 0x9f; cp++) expect(stripControl(`a${String.fromCharCode(cp)}b`), `U+${cp.toString(16)}`).toBe("ab");
  });

  it("preserves NBSP and the characters just outside the C1 block", () => {
    expect(stripControl("a\u00a0b")).toBe("a\u00a0b");
    expect(stripControl("~\u00a1")).toBe("~\u00a1");
  });

  it("keeps ordinary text and astral characters", () => {
    expect(stripControl("Grüße 😀 — ok")).toBe("Grüße 😀 — ok");
  });
});
