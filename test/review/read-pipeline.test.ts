/**
 * The read-canonical pipeline a reviewer approves against (SPEC §1 Input hygiene: "The review digest binds the
 * read-canonical form"): its fingerprint names every step of the read seam in the seam's fixed order with that step's
 * rule table, and the canonical form is the seam's output with PII left visible to the `pii:read` reviewer.
 * Issue 27: these kill survivors of `src/review/read-canonical.ts`.
 */
import { describe, expect, it } from "vitest";
import { CONTROL_PATTERN } from "../../src/hygiene/control-chars.ts";
import { SENTINEL_PATTERN } from "../../src/hygiene/sentinels.ts";
import { defaultReadCanonical, readSeamRules } from "../../src/review/read-canonical.ts";

describe("the read pipeline's fingerprint input", () => {
  it("lists the six read-seam steps in the seam's order, each with its rule table", () => {
    const rules = readSeamRules() as [string, unknown][];
    expect(rules.map(([name]) => name)).toEqual([
      "redact_pii", "strip_invisible", "strip_markdown_references", "strip_control", "strip_hostile_elements", "strip_sentinels",
    ]);
    for (const [name, table] of rules) expect(table, name).toBeTruthy();
    // The two steps whose rules are patterns contribute the pattern text, so a changed pattern moves the fingerprint.
    expect(rules[3][1]).toBe(CONTROL_PATTERN.source);
    expect(rules[5][1]).toMatchObject({ pattern: SENTINEL_PATTERN.source });
    expect(rules[2][1]).toBe("reference-style definitions");
  });
});

describe("the read-canonical form", () => {
  it("keeps PII for the reviewer and strips what the read seam strips", () => {
    const p = defaultReadCanonical();
    expect(p.apply("Mail ops@example.com\u200b now")).toBe("Mail ops@example.com now");
    expect(p.apply("call +1 415 555 0100")).toBe("call +1 415 555 0100");
  });
});
