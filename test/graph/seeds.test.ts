import { describe, expect, it } from "vitest";
import { matchEntityNames, relationCues } from "../../src/graph/seeds.ts";

const known = new Set(["priya", "priya raman", "payments team", "ledger", "incident 0412", "nodejs", "the", "api-gateway"]);
const isKnown = (n: string) => known.has(n);

describe("matchEntityNames", () => {
  it("prefers the longest run and moves past it", () => {
    expect(matchEntityNames("Did Priya Raman join the Payments Team?", isKnown)).toEqual(["priya raman", "payments team"]);
    expect(matchEntityNames("what did priya build", isKnown)).toEqual(["priya"]);
  });

  it("handles case, possessives, punctuation inside words and repeats", () => {
    expect(matchEntityNames("LEDGER's owner vs ledger; Incident 0412's cause on Node.js and `api-gateway`", isKnown))
      .toEqual(["ledger", "incident 0412", "nodejs", "api-gateway"]);
  });

  it("never matches a lone function word and finds nothing in unrelated text", () => {
    expect(matchEntityNames("the the the", isKnown)).toEqual([]);
    expect(matchEntityNames("", isKnown)).toEqual([]);
    expect(matchEntityNames("Priya Raman", isKnown, { maxWords: 1 })).toEqual(["priya"]);
  });
});

describe("relationCues", () => {
  it.each([
    ["Which on-call rotation covers the service Priya built?", ["created", "on_call_for"]],
    ["Who does Marcus report to?", ["reports_to"]],
    ["Where is the company Sofia co-founded headquartered?", ["located_in", "founded_by"]],
    ["What replaced Kiln, and who maintains it?", ["replaces", "maintains"]],
    ["Which services depend on Granite?", ["depends_on"]],
  ])("reads %j as %j", (q, types) => {
    expect(relationCues(q)).toEqual(expect.arrayContaining(types));
    expect(relationCues(q)).not.toContain("is_a");
  });

  it("finds no cue in a question without relation words", () => {
    expect(relationCues("Tell me about Ledger")).toEqual([]);
    expect(relationCues("")).toEqual([]);
  });
});

describe("relationCues overlap", () => {
  it("lets the longer cue use up its words", () => {
    expect(relationCues("Who is on call for Ledger?")).toEqual(["on_call_for"]);
    expect(relationCues("Which service calls Hearth?")).toEqual(["calls"]);
  });
});
