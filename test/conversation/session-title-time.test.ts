/**
 * `POST /ingest/conversation` takes a session title and a time per turn
 * (additions the chat importer uses, open to any client): the title is on
 * every turn's session line and in `meta.conversation.session_title`, a
 * turn's time in `meta.conversation.time`, and its relative dates resolve
 * against its own day. A malformed time is 400 `invalid_request` naming the
 * field, and nothing is written.
 */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

describe("POST /ingest/conversation session title and turn time", () => {
  it("keeps the title on the session line and the turn's time, resolving 'yesterday' against the turn's own day", async () => {
    const m = (t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }));
    const r = await m.req("POST", "/ingest/conversation", {
      session: { id: "trip-1", date: "2024-03-05", title: "Planning   the Lisbon trip" },
      turns: [
        { speaker: "Ana", text: "I booked the flights.", time: "2024-03-05T09:00:00Z" },
        { speaker: "Ana", text: "Yesterday I found a hotel near the river.", time: "2024-03-08T10:30:00+01:00" },
      ],
    });
    expect(r.status).toBe(200);
    const rows = (await m.memory.db.execute("SELECT content, meta FROM chunks ORDER BY id")).rows;
    expect(String(rows[0].content)).toMatch(/^Session trip-1 · 2024-03-05 · Planning the Lisbon trip\n/);
    const meta = JSON.parse(String(rows[1].meta)).conversation;
    expect(meta).toMatchObject({ session_title: "Planning the Lisbon trip", time: "2024-03-08T09:30:00.000Z", day: "2024-03-08" });
    expect(meta.dates[0]).toMatchObject({ text: "Yesterday", from: "2024-03-07" });
  });

  it("refuses a malformed time with 400 invalid_request naming the field, writing nothing", async () => {
    const m = (t = await openTestMemory({ CAIRN_EMBED_KIND: "none" }));
    const r = await m.req("POST", "/ingest/conversation", { session: { id: "s" }, turns: [{ speaker: "A", text: "hi" }, { speaker: "B", text: "yo", time: "last tuesday" }] });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toMatchObject({ code: "invalid_request", details: { field: "turns[1].time" } });
    expect((await m.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n).toBe(0);
  });
});
