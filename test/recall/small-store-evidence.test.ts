/**
 * Issue 36 finding 2, the vector-only pattern behind a wrongful abstention on the short-memories dev set (all 298
 * memories, through the memory door): the lexical leg finds nothing, and the vector leg's nearest memory stands far
 * out from the rest of the store ("When did I hike to Machu Picchu?" → "Did the Inca Trail in 2018 …"). It is
 * answered; every off-topic and nonsense query recall abstained on in this store still abstains.
 */
import { describe, expect, it } from "vitest";
import { shortMemories, useShortMemoryStore } from "./_short-memories.ts";

const { idOf, recall } = useShortMemoryStore(undefined, 180_000);

describe("abstention keeps a vector hit that stands out in a store of 298 short memories (issue 36)", () => {
  it.each([
    ["When did I hike to Machu Picchu?", ["t17"], "small_store_vector_standout"],
  ])("answers %s with the memory that holds the answer", async (query, memories, guard) => {
    const r = await recall(query);
    expect(r.decision).toBeUndefined();
    expect(r.hits.slice(0, 5).map((h: { id: number }) => idOf.get(h.id)).some((id: string | undefined) => memories.includes(id ?? ""))).toBe(true);
    expect(r.hits[0].provenance.quality_assessment.answer_guard).toBe(guard);
  });

  it.each([
    "What is the capital of Mongolia?", "Who won the 1966 football World Cup?", "Explain quantum entanglement in simple terms",
    "Best practices for Kubernetes pod autoscaling", "What's the population of Brazil?", "When was the Ottoman Empire founded?",
    "What is the tallest building in Dubai?", "What's the exchange rate between yen and dollars?", "How to tie a bowline knot",
    "What are the rules of cricket?", "What language is spoken in Suriname?", "Explain the offside rule in ice hockey",
    "What does GDP measure?", "What year did the Titanic sink?",
    ...shortMemories("offtopic.jsonl").filter((q) => q.kind === "nonsense").map((q) => q.text),
  ])("still abstains on an off-topic or nonsense query: %s", async (query) => {
    const r = await recall(query);
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
  });
});
