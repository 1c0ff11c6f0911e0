import { describe, expect, it } from "vitest";
import { loadBeir, parseJsonl, parseQrels } from "../../src/eval/beir.ts";

const CORPUS = [
  JSON.stringify({ _id: "10", title: "Cats", text: "cats sit" }),
  "",
  JSON.stringify({ _id: "20", text: "dogs run" }),
].join("\n");
const QUERIES = [JSON.stringify({ _id: "1", text: "cat" }), JSON.stringify({ _id: "2", text: "dog" }), JSON.stringify({ _id: "3", text: "unjudged" })].join("\n");
const QRELS = "query-id\tcorpus-id\tscore\n1\t10\t1\n2\t20\t1\n2\t10\t0\n";

describe("BEIR readers", () => {
  it("loads the corpus, and only the judged queries with their judgments", () => {
    const set = loadBeir({ corpus: CORPUS, queries: QUERIES, qrels: QRELS });
    expect(set.docs).toEqual([{ id: "10", title: "Cats", text: "cats sit" }, { id: "20", title: "", text: "dogs run" }]);
    expect(set.queries.map((q) => [q.id, q.text, [...q.judgments]])).toEqual([
      ["1", "cat", [["10", 1]]],
      ["2", "dog", [["20", 1], ["10", 0]]],
    ]);
  });

  it("reads qrels without a header too", () => {
    expect([...parseQrels("7 99 2\n")]).toEqual([["7", new Map([["99", 2]])]]);
  });

  it("names the line of invalid input", () => {
    expect(() => parseJsonl('{"a":1}\n{oops')).toThrow(/line 2/);
    expect(() => parseQrels("query-id\tcorpus-id\tscore\n1\t2\tmany\n")).toThrow(/line 2/);
  });
});
