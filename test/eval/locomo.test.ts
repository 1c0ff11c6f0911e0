import { describe, expect, it } from "vitest";
import { loadLocomo, normalizeEvidence } from "../../src/eval/locomo.ts";

const LOCOMO_FIXTURE = JSON.stringify([
  {
    sample_id: "conv-x",
    conversation: {
      speaker_a: "Alice",
      speaker_b: "Bob",
      session_1_date_time: "1:56 pm on 8 May, 2023",
      session_1: [
        { speaker: "Alice", dia_id: "D1:1", text: "I adopted a puppy named Rex" },
        { speaker: "Bob", dia_id: "D1:2", text: "Nice! I went hiking", blip_caption: "a photo of a mountain trail" },
      ],
      session_2_date_time: "10:00 am on 9 May, 2023",
      session_2: [{ speaker: "Alice", dia_id: "D2:1", text: "Rex learned to sit" }],
      session_3_date_time: "never held",
    },
    qa: [
      { question: "What is the puppy named?", answer: "Rex", evidence: ["D1:1"], category: 4 },
      { question: "What did Rex learn?", answer: "to sit", evidence: ["D2:1; D1:2"], category: 1 },
      { question: "What did Bob adopt?", adversarial_answer: "a puppy", evidence: ["D1:1"], category: 5 },
      { question: "Where is the lost turn?", answer: "nowhere", evidence: ["D9:9", "D"], category: 2 },
    ],
  },
]);

describe("loadLocomo", () => {
  it("turns dialogue turns into documents with speaker, caption and the session date in the title", () => {
    const [conv] = loadLocomo(LOCOMO_FIXTURE);
    expect(conv.sampleId).toBe("conv-x");
    expect(conv.docs).toEqual([
      { id: "D1:1", title: "1:56 pm on 8 May, 2023", content: "Alice: I adopted a puppy named Rex", session: 1, date: "1:56 pm on 8 May, 2023", speaker: "Alice", text: "I adopted a puppy named Rex" },
      { id: "D1:2", title: "1:56 pm on 8 May, 2023", content: "Bob: Nice! I went hiking [photo: a photo of a mountain trail]", session: 1, date: "1:56 pm on 8 May, 2023", speaker: "Bob", text: "Nice! I went hiking [photo: a photo of a mountain trail]" },
      { id: "D2:1", title: "10:00 am on 9 May, 2023", content: "Alice: Rex learned to sit", session: 2, date: "10:00 am on 9 May, 2023", speaker: "Alice", text: "Rex learned to sit" },
    ]);
  });

  it("can put the date in the content or leave out speaker, caption and date", () => {
    const [inContent] = loadLocomo(LOCOMO_FIXTURE, { dateIn: "content" });
    expect(inContent.docs[2]).toMatchObject({ title: "", content: "10:00 am on 9 May, 2023. Alice: Rex learned to sit" });
    const [bare] = loadLocomo(LOCOMO_FIXTURE, { dateIn: "none", speaker: false, captions: false });
    expect(bare.docs[1]).toMatchObject({ title: "", content: "Nice! I went hiking" });
  });

  it("keeps questions with category and normalised evidence, reporting evidence that names no turn", () => {
    const [conv] = loadLocomo(LOCOMO_FIXTURE);
    expect(conv.questions.map((q) => [q.category, q.evidence, q.answer])).toEqual([
      [4, ["D1:1"], "Rex"],
      [1, ["D2:1", "D1:2"], "to sit"],
      [5, ["D1:1"], "a puppy"],
      [2, [], "nowhere"],
    ]);
    expect(conv.unresolvedEvidence).toEqual(["D9:9", "D"]);
  });

  it("normalises the evidence spellings found in the released data", () => {
    expect(normalizeEvidence("D8:6; D9:17")).toEqual(["D8:6", "D9:17"]);
    expect(normalizeEvidence("D:11:26")).toEqual(["D11:26"]);
    expect(normalizeEvidence("D")).toEqual([]);
  });

  it("rejects text that is not a JSON array", () => {
    expect(() => loadLocomo("{}")).toThrow(/array/);
    expect(() => loadLocomo("nope")).toThrow(/JSON/);
  });
});
