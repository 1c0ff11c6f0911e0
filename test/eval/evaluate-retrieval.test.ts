import { describe, expect, it } from "vitest";
import { loadBeir } from "../../src/eval/beir.ts";
import { evaluateBeir, evaluateLocomo } from "../../src/eval/evaluate-retrieval.ts";
import { loadLocomo } from "../../src/eval/locomo.ts";
import { createBm25Index } from "../../src/lexical/bm25-index.ts";

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n");

describe("evaluateBeir", () => {
  it("scores a real BM25 index on a tiny set with hand-computed figures", () => {
    const set = loadBeir({
      corpus: jsonl([{ _id: "d1", text: "cat sat" }, { _id: "d2", text: "dog ran" }, { _id: "d3", text: "cat dog" }]),
      queries: jsonl([{ _id: "q1", text: "cat" }, { _id: "q2", text: "dog" }]),
      qrels: "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td3\t1\n",
    });
    // q1: d1 and d3 tie (same tf and length), d1 first by id → rank 1.
    // q2: d2 and d3 tie, d2 first by id → the relevant d3 is at rank 2.
    const s = evaluateBeir(set, createBm25Index());
    expect(s.queries).toBe(2);
    expect(s.ndcg10).toBeCloseTo((1 + 1 / Math.log2(3)) / 2, 12);
    expect(s.mrr).toBe(0.75);
    expect(s.recall5).toBe(1);
    expect(s.recall10).toBe(1);
  });
});

describe("evaluateLocomo", () => {
  const fixture = JSON.stringify([
    {
      sample_id: "conv-x",
      conversation: {
        session_1_date_time: "8 May, 2023",
        session_1: [
          { speaker: "Alice", dia_id: "D1:1", text: "I adopted a puppy named Rex" },
          { speaker: "Bob", dia_id: "D1:2", text: "Nice! I went hiking" },
        ],
        session_2_date_time: "9 May, 2023",
        session_2: [{ speaker: "Alice", dia_id: "D2:1", text: "Rex learned to sit" }],
      },
      qa: [
        { question: "What is the puppy named?", evidence: ["D1:1"], category: 4 },
        { question: "What did Rex learn?", evidence: ["D2:1", "D1:2"], category: 1 },
        { question: "What did Bob adopt?", evidence: ["D1:1"], category: 5 },
        { question: "Where is the lost turn?", evidence: ["D9:9"], category: 2 },
      ],
    },
  ]);

  it("searches each conversation's turns, leaving out adversarial and evidence-less questions", () => {
    const s = evaluateLocomo(loadLocomo(fixture), () => createBm25Index());
    // Q1 finds D1:1 first; Q2 finds D2:1 first but D1:2 ("hiking") shares no term → recall 1/2.
    expect(s.queries).toBe(2);
    expect(s.recall10).toBe(0.75);
    expect(s.mrr).toBe(1);
    expect(s.byCategory[4].recall10).toBe(1);
    expect(s.byCategory[1].recall10).toBe(0.5);
    expect(s.excludedAdversarial).toBe(1);
    expect(s.excludedNoEvidence).toBe(1);
  });
});
