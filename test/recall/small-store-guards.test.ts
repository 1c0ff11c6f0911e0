/**
 * Issue 36 finding 2: abstention must not hide an answer a small store holds. A store of 100 short memories (the
 * first 100 of fixtures/short-memories, through the memory door) answers questions whose one known word is rare in
 * the store and held by the best hit, or whose best lexical hit is also the vector leg's nearest chunk — and still
 * abstains on off-topic questions and nonsense.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

const FIXTURE = new URL("../../fixtures/short-memories/", import.meta.url);
const corpus = readFileSync(new URL("corpus.jsonl", FIXTURE), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { _id: string; text: string }).slice(0, 100);
let t: TestMemory;
const idOf = new Map<number, string>();
beforeAll(async () => {
  t = await openTestMemory();
  const r = await (await t.req("POST", "/ingest/memory", { entries: corpus.map((d) => ({ content: d.text })) })).json();
  r.results.forEach((x: { id: number }, i: number) => idOf.set(x.id, corpus[i]._id));
}, 120_000);
afterAll(async () => { await t.close(); });
const recall = async (query: string) => (await (await t.req("POST", "/recall", { query, limit: 5, provenance: true })).json());

describe("abstention in a small store of short memories (issue 36)", () => {
  it.each([
    ["When do I get paid?", "m07", "small_store_rare_term_held"],
    ["What insurance policies do I have?", "h20", "small_store_rare_term_held"],
    ["How much do I put into my pension?", "m14", "small_store_legs_agree"],
    ["Accessibility requirement for colours", "w31", "small_store_legs_agree"],
  ])("answers %s with the memory that holds the answer", async (query, memory, guard) => {
    const r = await recall(query);
    expect(r.decision).toBeUndefined();
    expect(r.hits.slice(0, 5).map((h: { id: number }) => idOf.get(h.id))).toContain(memory);
    expect(r.hits[0].provenance.quality_assessment.answer_guard).toBe(guard);
  });

  it.each([
    "What is the capital of Mongolia?", "Who won the 1966 football World Cup?", "What are the rules of cricket?",
    "Explain the offside rule in ice hockey", "What year did the Titanic sink?", "xqzv plorb wug", "lorem ipsum dolor sit amet",
  ])("still abstains on an off-topic or nonsense query: %s", async (query) => {
    const r = await recall(query);
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
  });
});
