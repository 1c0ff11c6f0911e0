/**
 * Issue 24 item 4: abstention never hides an answer about a person the store remembers. A question naming a
 * speaker of the store, whose own turn a served lexical hit is, is answered even when the confidence model is
 * low (most of its words are unknown to a small store); the same question about someone the store never heard
 * of still abstains.
 */
import { describe, expect, it } from "vitest";
import { useConversationStore } from "./_conversation-store.ts";

const { recall: recallWith } = useConversationStore({
  session: { id: "1", date: "2023-05-08" },
  turns: [
    { speaker: "John", text: "I finally finished the marathon last weekend, my knees are sore." },
    { speaker: "Maria", text: "Congratulations! How long did it take you?" },
    { speaker: "John", text: "Just under four hours. I am stubborn, I never quit a race." },
    { speaker: "Maria", text: "I adopted a second cat from the shelter on Friday." },
    { speaker: "John", text: "Cats are great. Mine sleeps on my keyboard all day." },
    { speaker: "Maria", text: "My new job at the library starts next month." },
  ],
});
const recall = async (query: string) => await recallWith({ query, limit: 5, provenance: true });

describe("the speaker guard (issue 24)", () => {
  it("answers a low-confidence question naming a speaker of the store, and says which rule applied", async () => {
    const r = await recall("What personality traits would describe John?");
    expect(r.telemetry.confidence).toBeLessThan(0.16);
    expect(r.decision).toBeUndefined();
    expect(r.hits.length).toBeGreaterThan(0);
    expect(r.hits[0].title).toMatch(/^John: /);
    expect(r.hits[0].provenance.quality_assessment.answer_guard).toBe("names_store_speaker");
  });

  it("still abstains on the same question about a person the store never heard of", async () => {
    const r = await recall("What personality traits would describe Zorblax?");
    expect(r.decision).toBe("low_confidence");
    expect(r.hits).toEqual([]);
  });
});
