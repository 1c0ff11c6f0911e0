import { describe, expect, it } from "vitest";
import { parseInjectionPolicy, queryAction, writeAction } from "../../src/hygiene/injection-policy.ts";

describe("INJECTION_POLICY", () => {
  it("defaults to quarantine when unset or blank and refuses unknown values", () => {
    expect(parseInjectionPolicy(undefined)).toBe("quarantine");
    expect(parseInjectionPolicy("  ")).toBe("quarantine");
    expect(parseInjectionPolicy("REJECT")).toBe("reject");
    expect(parseInjectionPolicy("off")).toBe("off");
    expect(parseInjectionPolicy("block")).toBeNull();
  });

  it("under quarantine stores flagged anything not clean (SPEC §1 behaviour)", () => {
    expect(writeAction("clean", "quarantine")).toBe("store");
    expect(writeAction("quarantine", "quarantine")).toBe("store_flagged");
    expect(writeAction("reject", "quarantine")).toBe("store_flagged");
  });

  it("under reject refuses anything not clean", () => {
    expect(writeAction("clean", "reject")).toBe("store");
    expect(writeAction("quarantine", "reject")).toBe("refuse");
    expect(writeAction("reject", "reject")).toBe("refuse");
  });

  it("under off stores everything", () => {
    expect(writeAction("reject", "off")).toBe("store");
  });

  it("rejects queries on a reject verdict, and on quarantine only under the reject policy", () => {
    expect(queryAction("reject", "quarantine")).toBe("reject");
    expect(queryAction("quarantine", "quarantine")).toBe("allow");
    expect(queryAction("quarantine", "reject")).toBe("reject");
    expect(queryAction("reject", "off")).toBe("allow");
    expect(queryAction("clean", "reject")).toBe("allow");
  });
});
