/**
 * Issue 36 finding 4: the speaker feature lifts the turns of the person a question is about. In "According to Alice,
 * what does Bob help her with?" that is Bob (the subject), not Alice (named first): the turn where Bob says what he
 * helps with must not sink under Alice's unrelated turns. A question naming one person still ranks that person's
 * turns first.
 */
import { describe, expect, it } from "vitest";
import { useConversationStore } from "./_conversation-store.ts";

const { turnIds: ids, recall } = useConversationStore({
  session: { id: "1", date: "2024-03-02" },
  turns: [
    { speaker: "Alice", text: "My tax forms are due on Friday and I am completely lost." },
    { speaker: "Bob", text: "Don't worry, I always help you with the tax forms. Send them over tonight." },
    { speaker: "Alice", text: "You are a lifesaver, thank you." },
    { speaker: "Bob", text: "My sister starts her new job next week." },
    { speaker: "Alice", text: "Tell her good luck from me!" },
    { speaker: "Bob", text: "I will bring the seedlings over on Sunday." },
    { speaker: "Alice", text: "Perfect, the raised beds are ready for them." },
    { speaker: "Bob", text: "Did you see the match last night?" },
    { speaker: "Alice", text: "No, I was at the animal shelter. I help there on Saturdays, walking the dogs." },
    { speaker: "Bob", text: "That sounds rewarding." },
  ],
});
const ranked = async (query: string) => ((await recall({ query, limit: 10 })).hits as { id: number }[]).map((h) => ids.indexOf(h.id));

describe("the speaker feature (issue 36)", () => {
  it("lifts the subject's turns, not the first-named person's, when the question names two people", async () => {
    const order = await ranked("According to Alice, what does Bob help her with?");
    // Turn 1 is Bob's answer; turn 8 is Alice's and says what she helps with, not Bob.
    expect(order[0]).toBe(1);
    expect(order.indexOf(1)).toBeLessThan(order.indexOf(8));
  });

  it("still ranks the named speaker's own turn first when the question names one person", async () => {
    expect((await ranked("What does Alice help with?"))[0]).toBe(8);
    expect((await ranked("What does Bob help with?"))[0]).toBe(1);
  });
});
