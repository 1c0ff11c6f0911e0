import { describe, expect, it } from "vitest";
import { cleanMemoryEntry } from "../../src/hygiene/clean-memory-entry.ts";
import { parseSkipPatterns, shouldSkip } from "../../src/hygiene/skip-patterns.ts";

describe("parseSkipPatterns (SPEC §1 SVC_INGEST_SKIP_PATTERNS)", () => {
  it("gives no patterns when unset or empty", () => {
    expect(parseSkipPatterns(undefined)).toEqual([]);
    expect(parseSkipPatterns("")).toEqual([]);
    expect(parseSkipPatterns(" , \n ,")).toEqual([]);
  });

  it("splits on commas and newlines and ignores blanks", () => {
    expect(parseSkipPatterns("HEARTBEAT,[cron]\nDEBUG:,,\n\n  ")).toEqual(["HEARTBEAT", "[cron]", "DEBUG:"]);
  });

  it("trims each pattern", () => {
    expect(parseSkipPatterns(" a , b\r\n c ")).toEqual(["a", "b", "c"]);
  });
});

describe("shouldSkip", () => {
  const patterns = ["HEARTBEAT", "[auto]"];

  it("matches a prefix of the trimmed-start text", () => {
    expect(shouldSkip("HEARTBEAT ok", patterns)).toBe(true);
    expect(shouldSkip("  \n\tHEARTBEAT ok", patterns)).toBe(true);
    expect(shouldSkip("[auto] saved", patterns)).toBe(true);
  });

  it("is case-sensitive", () => {
    expect(shouldSkip("heartbeat ok", patterns)).toBe(false);
  });

  it("only matches at the start", () => {
    expect(shouldSkip("status: HEARTBEAT", patterns)).toBe(false);
  });

  it("never skips with no patterns", () => {
    expect(shouldSkip("HEARTBEAT", [])).toBe(false);
  });
});

describe("cleanMemoryEntry (/ingest/memory hygiene)", () => {
  it("strips reasoning blocks and keeps the rest untrimmed", () => {
    expect(cleanMemoryEntry("<think>plan</think> User likes tea ", [])).toEqual({ kept: true, text: " User likes tea " });
  });

  it("drops an entry that starts with a skip pattern", () => {
    expect(cleanMemoryEntry("HEARTBEAT 12:00", ["HEARTBEAT"])).toEqual({ kept: false, reason: "skip_pattern", pattern: "HEARTBEAT" });
  });

  it("drops an entry whose prefix appears once a leading reasoning block is stripped", () => {
    expect(cleanMemoryEntry("<thinking>x</thinking>\nHEARTBEAT", ["HEARTBEAT"])).toMatchObject({ kept: false, reason: "skip_pattern" });
  });

  it("drops an entry that is blank after stripping", () => {
    expect(cleanMemoryEntry("  <reasoning>only thoughts</reasoning>\n", [])).toEqual({ kept: false, reason: "empty" });
  });
});
