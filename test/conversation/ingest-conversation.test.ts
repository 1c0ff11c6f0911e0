import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory({ CAIRN_INGEST_SKIP_PATTERNS: "[auto]" }); });
afterEach(async () => { await t.close(); });

const post = async (body: unknown) => {
  const res = await t.req("POST", "/ingest/conversation", body);
  return { status: res.status, body: await res.json() };
};
const recall = async (query: string, extra: Record<string, unknown> = {}) =>
  (await (await t.req("POST", "/recall", { query, limit: 5, ...extra })).json()) as { hits: { id: number; content: string; title?: string }[]; decision?: string };

const FIFA = {
  session: { id: "s1", date: "1:56 pm on 8 May, 2023" },
  turns: [
    { speaker: "John", text: "Morning Maria! How was the weekend?", id: "D1:1" },
    { speaker: "Maria", text: "Lovely, we hiked up the ridge and had a picnic by the lake.", id: "D1:2" },
    { speaker: "Maria", text: "My sister paints landscapes now, by the way.", id: "D1:3" },
    { speaker: "Maria", text: "I signed up for the FIFA tournament next month. What should I be practising before it?", id: "D1:4" },
    { speaker: "John", text: "All you need is a gamepad and an hour every evening on passing drills.", id: "D1:5" },
    { speaker: "Maria", text: "Thanks, I will.", id: "D1:6" },
    { speaker: "Maria", text: "Anyway, the weather looks grim for Saturday.", id: "D1:7" },
    { speaker: "John", text: "Nice! I went to a pottery class yesterday and made a bowl.", id: "D1:8" },
  ],
};

describe("POST /ingest/conversation (issue 24)", () => {
  it("answers each turn's chunk id and status in turn order, then duplicates on a replay", async () => {
    const a = await post(FIFA);
    expect(a.status).toBe(200);
    expect(a.body.turns.map((x: { status: string }) => x.status)).toEqual(Array(8).fill("created"));
    expect(a.body.turns.map((x: { turn_id: string }) => x.turn_id)).toEqual(FIFA.turns.map((x) => x.id));
    expect(a.body).toMatchObject({ session: "s1", domain: "global", created: 8, duplicate: 0, skipped: 0, proposed: 0 });
    const ids = a.body.turns.map((x: { id: number }) => x.id);
    expect(new Set(ids).size).toBe(8);
    const b = await post(FIFA);
    expect(b.body.turns.map((x: { id: number; status: string }) => [x.id, x.status])).toEqual(ids.map((id: number) => [id, "duplicate"]));
  });

  it("stores the turn as the title, its neighbours and the session in the content, and the speaker and dates as labels", async () => {
    const { body } = await post(FIFA);
    const hit = (await recall("pottery class bowl", { provenance: true })).hits[0];
    expect(hit.id).toBe(body.turns[7].id);
    expect(hit.title).toBe("John: Nice! I went to a pottery class yesterday and made a bowl.");
    expect(hit.content).toContain("Session s1 · 1:56 pm on 8 May, 2023");
    expect(hit.content).toContain("Maria: Thanks, I will.");
    expect(hit.content).not.toContain("FIFA");
    // The relative date is resolved beside the text; the turn's own words stay verbatim.
    expect(hit.content).toContain("(yesterday: 7 May 2023)");
    expect(hit.content).toContain("I went to a pottery class yesterday and made a bowl.");
  });

  it("finds an answer turn that only makes sense with the question before it", async () => {
    const { body } = await post(FIFA);
    const q = "What did John suggest practising before FIFA?";
    expect((await recall(q)).hits[0].id).toBe(body.turns[4].id);
    // The same words stored as a lone turn share no word with the question but the speaker's name.
    const alone = await t.req("POST", "/ingest/memory", { content: "John: All you need is a gamepad and an hour every evening." });
    const aloneId = (await alone.json()).id;
    expect((await recall(q, { limit: 3 })).hits.map((h) => h.id)).not.toContain(aloneId);
  });

  it("ranks the named speaker's turn first when two speakers say much the same (speaker label boost)", async () => {
    // Lexical-only on purpose: the comparison below isolates the speaker feature against BM25 alone (with the static
    // embedder the vector feature also favours the named speaker's turn, so it could not show that the label decides).
    await t.close();
    t = await openTestMemory({ CAIRN_INGEST_SKIP_PATTERNS: "[auto]", CAIRN_EMBED_KIND: "none" });
    const { body } = await post({
      session: { id: "art" },
      turns: [
        { speaker: "Caroline", text: "Melanie, I paint sunsets, painting sunsets over the sea is what I paint most." },
        { speaker: "Melanie", text: "Lately I paint sunsets too." },
        { speaker: "Caroline", text: "We should go to the museum." },
        { speaker: "Melanie", text: "Yes, next week." },
      ],
    });
    const q = "What does Melanie paint?";
    expect((await recall(q)).hits[0].id).toBe(body.turns[1].id);
    // Without the speaker feature the other speaker's stronger lexical match wins: the label is what decides.
    const params = t.memory.recallEngine.params;
    t.memory.recallEngine.params = { ...params, rerankWeights: { ...params.rerankWeights, speaker: 0 } };
    expect((await recall(q)).hits[0].id).toBe(body.turns[0].id);
  });

  it("finds the turn whose resolved relative date matches a date the query names", async () => {
    const { body } = await post({
      session: { id: "s2", date: "2023-05-08" },
      turns: [
        { speaker: "Ana", text: "I went to the support group meeting yesterday." },
        { speaker: "Ben", text: "The support group meeting is a good idea, I plan to go to a support group meeting soon." },
      ],
    });
    const r = await recall("support group meeting on 7 May 2023");
    expect(r.hits[0].id).toBe(body.turns[0].id);
  });

  it("applies the memory door's hygiene per turn: a skip-pattern turn is skipped and appears in no window", async () => {
    const { body } = await post({
      session: { id: "h" },
      turns: [{ speaker: "A", text: "hello there" }, { speaker: "bot", text: "[auto] secret tool output zebra" }, { speaker: "A", text: "<think>plan</think>bye now" }],
    });
    expect(body.turns.map((x: { status: string }) => x.status)).toEqual(["created", "skipped", "created"]);
    expect((await recall("zebra")).hits).toEqual([]);
    const bye = (await recall("bye now")).hits[0];
    expect(bye.content).not.toContain("plan");
  });

  it("refuses malformed bodies with the SPEC §7 envelope and writes nothing", async () => {
    for (const bad of [{}, { session: { id: "x" } }, { session: { id: "x" }, turns: [] }, { session: {}, turns: [{ speaker: "A", text: "t" }] },
      { session: { id: "x" }, turns: [{ text: "no speaker" }] }, { session: { id: "x" }, turns: [{ speaker: "A", text: "" }] }, { session: { id: "x" }, turns: "nope" }]) {
      const r = await post(bad);
      expect(r.status).toBe(400);
      expect(typeof r.body.error.code).toBe("string");
    }
    expect((await (await t.req("GET", "/domains")).json()).domains[0].entries).toBe(0);
  });

  it("an approved turn keeps its speaker and session labels, so a question naming the speaker still gets the boost", async () => {
    const r = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" });
    try {
      const res = await r.req("POST", "/ingest/conversation", {
        session: { id: "art", date: "2023-05-08" },
        turns: [
          { speaker: "Caroline", text: "Melanie, I paint sunsets, painting sunsets over the sea is what I paint most." },
          { speaker: "Melanie", text: "Lately I paint sunsets too." },
        ],
      });
      const filed = (await res.json()).turns.map((x: { proposal_id: number }) => x.proposal_id);
      // Two turns whose windows hold the same words are still two proposals, as they are two chunks on the open door.
      expect(new Set(filed).size).toBe(2);
      const ids: number[] = [];
      for (const id of filed) {
        const view = await (await r.req("GET", `/proposals/${id}`)).json();
        const ok = await (await r.req("POST", `/proposals/${id}/approve?digest=${view.content_digest}`)).json();
        ids.push(ok.promoted_chunk_id);
      }
      const hits = (await (await r.req("POST", "/recall", { query: "What does Melanie paint?", limit: 3 })).json()).hits;
      expect(hits[0].id).toBe(ids[1]);
    } finally {
      await r.close();
    }
  });

  it("files each turn as a proposal under the review posture", async () => {
    const r = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" });
    try {
      const res = await r.req("POST", "/ingest/conversation", { session: { id: "p" }, turns: [{ speaker: "A", text: "remember the blue door" }] });
      const body = await res.json();
      expect(body.turns[0].status).toBe("proposed");
      expect(typeof body.turns[0].proposal_id).toBe("number");
      expect((await (await r.req("POST", "/recall", { query: "blue door" })).json()).hits).toEqual([]);
    } finally {
      await r.close();
    }
  });
});
