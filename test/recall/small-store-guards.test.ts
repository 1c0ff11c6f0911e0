/**
 * Issue 36 finding 2: abstention must not hide an answer a small store holds. A store of 100 short memories (the
 * first 100 of fixtures/short-memories, through the memory door) answers questions whose one known word is rare in
 * the store and held by the best hit, or whose best lexical hit is also the vector leg's nearest chunk — and still
 * abstains on off-topic questions and nonsense.
 */
import { describe, expect, it } from "vitest";
import { useShortMemoryStore } from "./_short-memories.ts";

const { idOf, recall } = useShortMemoryStore(100, 120_000);

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
