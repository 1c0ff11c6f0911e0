/**
 * What boot rebuilds equals what live writes built (STYLE 18): a conversation's speaker labels survive a server
 * restart on the same database, so a question naming a speaker ranks that speaker's turns the same before and after.
 */
import { describe, expect, it } from "vitest";
import { GARDEN_SESSION } from "../_helpers/doors.ts";
import { restartableServer } from "../_helpers/booted-server.ts";

const srv = restartableServer();
const { env, post } = srv;

describe("a conversation across a server restart", () => {
  it("ranks the named speaker's turns first before and after a restart on the same database", async () => {
    await srv.boot();
    const ing = await post("/ingest/conversation", GARDEN_SESSION);
    expect(ing.status).toBe(200);
    const alice = new Set([0, 2, 4].map((i) => ing.body.turns[i].id));
    const q = { query: "What did Alice say about the garden?", limit: 5 };
    const before = (await post("/recall", q)).body;
    expect(alice.has(before.hits[0].id)).toBe(true);
    await srv.boot();
    const after = (await post("/recall", q)).body;
    expect(after.hits.map((h: { id: number }) => h.id)).toEqual(before.hits.map((h: { id: number }) => h.id));
    expect(after.hits.map((h: { score: number }) => h.score)).toEqual(before.hits.map((h: { score: number }) => h.score));
  }, 120_000);
});
