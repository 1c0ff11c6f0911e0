import { describe, expect, it } from "vitest";
import { parseSessionDay, queryDateSpans, resolveRelativeDates, spellDay, spansOverlap } from "../../src/conversation/dates.ts";

const day = (s: string) => new Date(parseSessionDay(s)!).toISOString().slice(0, 10);

describe("conversation dates (issue 24 item 3)", () => {
  it("reads session dates as clients write them", () => {
    expect(day("1:56 pm on 8 May, 2023")).toBe("2023-05-08");
    expect(day("2023-05-08T13:56:00Z")).toBe("2023-05-08");
    expect(day("May 8, 2023")).toBe("2023-05-08");
    expect(day("8th of May 2023".replace("of ", ""))).toBe("2023-05-08");
    expect(parseSessionDay("sometime last spring")).toBeUndefined();
    expect(parseSessionDay("31 February 2023")).toBeUndefined();
  });

  it("resolves yesterday, last Friday, two weeks ago and last month against the session day (a Monday)", () => {
    const monday = parseSessionDay("8 May 2023")!;
    const got = resolveRelativeDates("Yesterday was fun. Last Friday I ran; two weeks ago I swam, and last month I moved.", monday);
    expect(got.map((r) => [r.text.toLowerCase(), r.from, r.to])).toEqual([
      ["yesterday", "2023-05-07", "2023-05-07"],
      ["last friday", "2023-05-05", "2023-05-05"],
      ["two weeks ago", "2023-04-21", "2023-04-27"],
      ["last month", "2023-04-01", "2023-04-30"],
    ]);
    expect(resolveRelativeDates("nothing dated here", monday)).toEqual([]);
  });

  it("finds explicit dates in a query and matches them against spans", () => {
    const spans = queryDateSpans("What did Caroline do on 7 May 2023 and in June 2023?");
    expect(spans).toEqual([{ from: "2023-05-07", to: "2023-05-07" }, { from: "2023-06-01", to: "2023-06-30" }]);
    expect(spansOverlap([{ from: "2023-06-10", to: "2023-06-10" }], spans)).toBe(true);
    expect(spansOverlap([{ from: "2023-05-08", to: "2023-05-08" }], spans)).toBe(false);
    expect(spellDay("2023-05-07")).toBe("7 May 2023");
  });
});
