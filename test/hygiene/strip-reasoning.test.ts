import { describe, expect, it } from "vitest";
import { REASONING_TAGS, stripReasoning } from "../../src/hygiene/strip-reasoning.ts";

describe("stripReasoning (SPEC §1 input hygiene)", () => {
  for (const tag of REASONING_TAGS) {
    it(`removes a paired <${tag}> block with its content`, () => {
      expect(stripReasoning(`Answer: <${tag}>private chain of thought</${tag}>42`)).toBe("Answer: 42");
    });
    it(`drops an unclosed trailing <${tag}> block to the end of the text`, () => {
      expect(stripReasoning(`Keep this. <${tag}>never closed\nsecond line`)).toBe("Keep this. ");
    });
    it(`never matches a longer tag name <${tag}x>`, () => {
      const text = `a <${tag}x>kept</${tag}x> b`;
      expect(stripReasoning(text)).toBe(text);
    });
  }

  it("matches tag names case-insensitively, open and close independently", () => {
    expect(stripReasoning("x<THINK>a</think>y<Reasoning>b</REASONING>z")).toBe("xyz");
  });

  it("accepts attributes on the open tag, including a quoted '>'", () => {
    expect(stripReasoning('x<thinking budget="10" mode=\'a>b\'>hidden</thinking>y')).toBe("xy");
    expect(stripReasoning("x<analysis\n  id=1>hidden</analysis>y")).toBe("xy");
  });

  it("leaves tags that only share a prefix or a suffix alone", () => {
    const text = "<thin>a</thin><rethink>b</rethink><think-tank>c</think-tank>";
    expect(stripReasoning(text)).toBe(text);
  });

  it("removes several blocks and keeps the text between them", () => {
    expect(stripReasoning("<think>1</think>A<reflection>2</reflection>B<analysis>3</analysis>C")).toBe("ABC");
  });

  it("counts nested blocks of the same name", () => {
    expect(stripReasoning("a<think>x<think>y</think>z</think>b")).toBe("ab");
  });

  it("ignores other reasoning tag names inside a block", () => {
    expect(stripReasoning("a<think>x<analysis>y</think>b")).toBe("ab");
  });

  it("drops a trailing block whose inner close belongs to another name", () => {
    expect(stripReasoning("a<thinking>x</think>tail")).toBe("a");
  });

  it("removes a self-closing reasoning tag without eating the rest", () => {
    expect(stripReasoning("a<think/>b<think />c")).toBe("abc");
  });

  it("leaves a close tag without an open tag in place", () => {
    expect(stripReasoning("reasoning...</think>answer")).toBe("reasoning...</think>answer");
  });

  it("returns text without tags unchanged", () => {
    expect(stripReasoning("plain text with <b>html</b>")).toBe("plain text with <b>html</b>");
  });
});
