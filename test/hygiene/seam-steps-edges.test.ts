import { describe, expect, it } from "vitest";
import { cleanMemoryEntry } from "../../src/hygiene/clean-memory-entry.ts";
import { hasInvisible } from "../../src/hygiene/invisible-chars.ts";
import { stripMarkdownReferences as md } from "../../src/hygiene/markdown-references.ts";
import { sanitizeForRead } from "../../src/hygiene/sanitize-for-read.ts";
import { stripSentinels } from "../../src/hygiene/sentinels.ts";
import { shouldSkip } from "../../src/hygiene/skip-patterns.ts";
import { stripReasoning } from "../../src/hygiene/strip-reasoning.ts";

// Issue 27 (mutation testing): the edges of the SPEC §1 write-side strip and read-seam steps, as a client reads the result.
describe("markdown reference definitions (CommonMark shape)", () => {
  it("keeps a definition with an empty or blank label, and removes one with an escaped bracket", () => {
    expect(md("[]: https://x.example\nk")).toBe("[]: https://x.example\nk");
    expect(md("[ ]: https://x.example\nk")).toBe("[ ]: https://x.example\nk");
    expect(md("[a\\]b]: https://x.example\nk")).toBe("k");
  });

  it("keeps a definition with no destination, at the end or before a blank line", () => {
    expect(md("k\n[a]:")).toBe("k\n[a]:");
    expect(md("[a]:\n\nk")).toBe("[a]:\n\nk");
  });

  it("reads angle-bracket destinations, including the empty one, and rejects an unclosed one", () => {
    expect(md("[a]: <>\nk")).toBe("k");
    expect(md("[a]: <https://x.example\nk")).toBe("[a]: <https://x.example\nk");
    expect(md('[a]: <https://x.example>"t"\nk')).toBe('[a]: <https://x.example>"t"\nk');
  });

  it("accepts a destination right after the colon and a title after a tab or with trailing spaces", () => {
    expect(md("[a]:https://x.example\nk")).toBe("k");
    expect(md("[a]: https://x.example\t'tab'\nk")).toBe("k");
    expect(md('[a]: https://x.example "t"   \nk')).toBe("k");
  });

  it("accepts escaped quotes in a title and rejects unbalanced parentheses", () => {
    expect(md('[a]: https://x.example "a \\" b"\nk')).toBe("k");
    expect(md("[a]: https://x.example 'it\\'s'\nk")).toBe("k");
    expect(md("[a]: https://x.example (t(x))\nk")).toBe("[a]: https://x.example (t(x))\nk");
  });

  it("takes a title from the next line only when that line is nothing but a title", () => {
    expect(md("[a]: https://x.example\n't'\nk")).toBe("k");
    expect(md("[a]: https://x.example\n(t)\nk")).toBe("k");
    expect(md('[a]: https://x.example\n"t" more\nk')).toBe('"t" more\nk');
    expect(md("[a]: https://x.example\nnext line prose")).toBe("next line prose");
    expect(md("[a]:  \n   https://x.example 'title'\nk")).toBe("k");
  });

  it("closes a fence only with the same character, at least as long, and nothing after it", () => {
    expect(md("````\n[a]: x\n```\n[b]: y\n````\n[c]: z\nk")).toBe("````\n[a]: x\n```\n[b]: y\n````\nk");
    expect(md("~~~\n[a]: x\n```\n[b]: y\n~~~\n[c]: z\nk")).toBe("~~~\n[a]: x\n```\n[b]: y\n~~~\nk");
    expect(md("```\n[a]: x\n``` js\n[b]: y\n```\n[c]: z\nk")).toBe("```\n[a]: x\n``` js\n[b]: y\n```\nk");
    expect(md("  ```\n[a]: x\n   ```\n[b]: y")).toBe("  ```\n[a]: x\n   ```");
  });
});

describe("more definition shapes", () => {
  it("takes labels of up to 999 characters without an unescaped bracket, as CommonMark does", () => {
    expect(md(`[${"a".repeat(999)}]: https://x.example\nk`)).toBe("k");
    const long = `[${"a".repeat(1000)}]: https://x.example\nk`;
    expect(md(long)).toBe(long);
    expect(md("[a[b]: https://x.example\nk")).toBe("[a[b]: https://x.example\nk");
  });

  it("accepts a tab after the colon and a definition on the last line, and rejects broken destinations and titles", () => {
    expect(md("[a]:\thttps://x.example\nk")).toBe("k");
    expect(md("k\n[a]: https://x.example")).toBe("k");
    expect(md('[a]: https://x.example\n"t"')).toBe("");
    expect(md("[a]: <a<b>\nk")).toBe("[a]: <a<b>\nk");
    expect(md('[a]: https://x.example "t\nk')).toBe('[a]: https://x.example "t\nk');
    expect(md('[a]: <https://x.example>"t t"\nk')).toBe('[a]: <https://x.example>"t t"\nk');
  });

  it("does not open a fence with four spaces of indent or two backticks", () => {
    expect(md("    ```\n[a]: x\nk")).toBe("    ```\nk");
    expect(md("``\n[a]: x\nk")).toBe("``\nk");
    expect(md("   [a]: x\n    [b]: y")).toBe("    [b]: y");
  });
});

describe("reasoning strip edges", () => {
  it("reads a close tag with a space before '>' and an open tag whose attributes start with '/'", () => {
    expect(stripReasoning("a<think>b</think >c")).toBe("ac");
    expect(stripReasoning("a<think/ x>b</think>c")).toBe("ac");
  });

  it("reads empty quoted attribute values and long attribute lists", () => {
    expect(stripReasoning('<think a="">x</think>y')).toBe("y");
    expect(stripReasoning("<think a=''>x</think>y")).toBe("y");
    expect(stripReasoning(`<think ${"a".repeat(250)}>x</think>y`)).toBe("y");
  });

  it("does not take a close tag with attributes as a close tag", () => {
    expect(stripReasoning("a<think>b</think foo>c")).toBe("a");
  });

  it("reads a self-closing tag with spaces and a self-closing tag inside a block", () => {
    expect(stripReasoning("<think / >x")).toBe("x");
    expect(stripReasoning("<think>a<think/>b</think>c")).toBe("c");
  });

  it("drops to the end when a nested block leaves the outer one open", () => {
    expect(stripReasoning("keep<think>a<think>b</think>c")).toBe("keep");
    expect(stripReasoning("x<analysis>a<analysis>b</analysis>c</analysis>y<think>z")).toBe("xy");
  });

  it("keeps stray close tags before and after a block", () => {
    expect(stripReasoning("a</think>b<think>c</think>d")).toBe("a</think>bd");
    expect(stripReasoning("a<think>b</think>c</think>d")).toBe("ac</think>d");
  });

  it("ends the tag name at a tab or newline", () => {
    expect(stripReasoning("<think\tid=1>x</think>y")).toBe("y");
    expect(stripReasoning("<think\n>x</think>y")).toBe("y");
  });
});

describe("sentinel edges", () => {
  it("removes bar tokens up to 64 characters, with either bar, and keeps longer or spaced ones", () => {
    expect(stripSentinels(`<|${"a".repeat(64)}|>x`)).toBe("x");
    expect(stripSentinels(`<|${"a".repeat(65)}|>x`)).toBe(`<|${"a".repeat(65)}|>x`);
    expect(stripSentinels("<||>x<|a｜>y<｜a|>z")).toBe("xyz");
    for (const s of ["<| im_start |>", "<|a|b|>x", "<|a<b|>x", "<|\tx|>y"]) expect(stripSentinels(s), s).toBe(s);
  });

  it("removes every token of a multi-line text, not only the first", () => {
    expect(stripSentinels("<|im_start|>\n<|im_end|>")).toBe("\n");
  });
});

describe("skip rule and entry cleaning", () => {
  const patterns = ["HEARTBEAT", "DEBUG:"];

  it("names the pattern that matched, after leading whitespace or a leading reasoning block", () => {
    expect(cleanMemoryEntry("  DEBUG: x", patterns)).toEqual({ kept: false, reason: "skip_pattern", pattern: "DEBUG:" });
    expect(cleanMemoryEntry("<think>x</think>  DEBUG: y", patterns)).toEqual({ kept: false, reason: "skip_pattern", pattern: "DEBUG:" });
    expect(cleanMemoryEntry("xDEBUG:", patterns)).toEqual({ kept: true, text: "xDEBUG:" });
  });

  it("never lets an empty pattern match everything", () => {
    expect(shouldSkip("anything", [""])).toBe(false);
    expect(cleanMemoryEntry("anything", [""])).toEqual({ kept: true, text: "anything" });
    expect(cleanMemoryEntry("DEBUG x", ["", "DEBUG"])).toEqual({ kept: false, reason: "skip_pattern", pattern: "DEBUG" });
  });
});

describe("invisible characters", () => {
  it("tells whether a text holds one", () => {
    expect(hasInvisible("a\u200bb")).toBe(true);
    expect(hasInvisible("a\u{e0041}")).toBe(true);
    expect(hasInvisible("ab\u00a0c")).toBe(false);
    // The check has no state between calls.
    expect([hasInvisible("\u200b"), hasInvisible("\u200b"), hasInvisible("x")]).toEqual([true, true, false]);
  });
});

describe("read seam", () => {
  it("keeps running until a step stops changing the text, however many passes that takes", () => {
    // Each layer of sentinels, once removed, forms a new one: the seam must not stop after a fixed small number of passes.
    expect(sanitizeForRead("<scr<|a|>ipt>x</scr<|b|>ipt>ok", { piiRead: false })).toBe("ok");
    expect(sanitizeForRead("call 4155550142 <b onclick=x>", { piiRead: true })).toBe("call 4155550142 <b>");
  });
});
