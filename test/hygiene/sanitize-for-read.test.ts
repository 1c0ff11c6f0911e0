import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { isInvisible } from "../../src/hygiene/invisible-chars.ts";
import { sanitizeForRead } from "../../src/hygiene/sanitize-for-read.ts";

const UNICODE = resolve(import.meta.dirname, "../../../shared/data/unicode");
const hasUnicode = existsSync(UNICODE);
if (!hasUnicode) console.warn(`Unicode data not found at ${UNICODE}; skipping the data-file checks`);

const isControl = (cp: number) => (cp <= 0x1f && cp !== 0x09 && cp !== 0x0a) || (cp >= 0x7f && cp <= 0x9f);
const listedPoints = (s: string) => Array.from(s).map((c) => c.codePointAt(0) as number).filter((cp) => isInvisible(cp) || isControl(cp));
const anon = { piiRead: false };

describe("sanitizeForRead (SPEC §1 read seam)", () => {
  it("redacts personal data for a principal without pii:read", () => {
    expect(sanitizeForRead("Mail ana@example.com or call 415-555-0142", anon)).toBe("Mail [redacted:email] or call [redacted:phone]");
  });

  it("keeps personal data for a principal with pii:read, still applying every other step", () => {
    expect(sanitizeForRead("Mail ana@example.com\u200b<script>x</script>", { piiRead: true })).toBe("Mail ana@example.com");
  });

  it("applies every step in one pass over mixed content", () => {
    const text = 'Hi\u200b there\u0007 <img src="https://t.example/x.png" onerror="x()">\n[1]: https://t.example\n<|im_start|>';
    expect(sanitizeForRead(text, anon)).toBe("Hi there <img>\n");
  });

  it("redacts before stripping: an invisible character inside an address is not a way around masking", () => {
    // Redaction runs first on the raw text, then the strip joins the halves; the seam repeats until stable.
    expect(sanitizeForRead("ana\u200b@example.com", anon)).toBe("[redacted:email]");
  });

  it("removes a script tag that only forms once a sentinel is stripped", () => {
    expect(sanitizeForRead("<scr<|x|>ipt>alert(1)</scr<|y|>ipt>", anon)).not.toMatch(/<\/?script/i);
  });

  it("removes a reference definition that only forms once a control character is stripped", () => {
    expect(sanitizeForRead("[a]\u0001: https://t.example\nok", anon)).toBe("ok");
  });

  it("is idempotent", () => {
    const samples = [
      "plain",
      "a@b.co <a href='javascript:x'>l</a> 4111111111111111",
      "<scr<script>x</script>ipt>\u202e\u2066[INST]",
      "line\r\nline\u00a0nbsp [x]: https://y.example 'z'",
    ];
    for (const s of samples) {
      const once = sanitizeForRead(s, anon);
      expect(sanitizeForRead(once, anon), s).toBe(once);
    }
  });

  it("keeps NBSP, tabs and newlines", () => {
    expect(sanitizeForRead("a\u00a0b\tc\nd", anon)).toBe("a\u00a0b\tc\nd");
  });

  it.skipIf(!hasUnicode)("never emits a listed invisible or control code point for the invisible-characters data set", () => {
    const chars = JSON.parse(readFileSync(resolve(UNICODE, "invisible-characters.json"), "utf8")) as { code: string }[];
    expect(chars.length).toBeGreaterThan(0);
    for (const { code } of chars) {
      const c = String.fromCodePoint(parseInt(code, 16));
      const out = sanitizeForRead(`before${c}after ${c}${c} end`, anon);
      expect(listedPoints(out), `U+${code}`).toEqual([]);
    }
  });

  it.skipIf(!hasUnicode)("runs every naughty string without a crash and without a listed code point in the output", () => {
    const strings = JSON.parse(readFileSync(resolve(UNICODE, "blns.json"), "utf8")) as string[];
    expect(strings.length).toBeGreaterThan(0);
    for (const s of strings) {
      const out = sanitizeForRead(s, anon);
      expect(typeof out).toBe("string");
      expect(listedPoints(out), JSON.stringify(s)).toEqual([]);
      expect(out).not.toMatch(/<script[\s/>]/i);
      expect(sanitizeForRead(out, anon)).toBe(out);
    }
  });
});
