/**
 * What boot rebuilds equals what live writes built (STYLE 18): a conversation's speaker labels survive a server
 * restart on the same database, so a question naming a speaker ranks that speaker's turns the same before and after.
 */
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { GARDEN_SESSION } from "../_helpers/doors.ts";
import { tempDir } from "../_helpers/memory.ts";

const dir = tempDir();
const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), BIND_ADDR: "127.0.0.1" };
let server: BootedServer | undefined;
afterAll(async () => { await server?.close(); });

const post = async (path: string, body: unknown) => {
  const res = await fetch(`http://127.0.0.1:${server!.server.port}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

describe("a conversation across a server restart", () => {
  it("ranks the named speaker's turns first before and after a restart on the same database", async () => {
    server = await bootServer(env, 0);
    const ing = await post("/ingest/conversation", GARDEN_SESSION);
    expect(ing.status).toBe(200);
    const alice = new Set([0, 2, 4].map((i) => ing.body.turns[i].id));
    const q = { query: "What did Alice say about the garden?", limit: 5 };
    const before = (await post("/recall", q)).body;
    expect(alice.has(before.hits[0].id)).toBe(true);
    await server.close();
    server = await bootServer(env, 0);
    const after = (await post("/recall", q)).body;
    expect(after.hits.map((h: { id: number }) => h.id)).toEqual(before.hits.map((h: { id: number }) => h.id));
    expect(after.hits.map((h: { score: number }) => h.score)).toEqual(before.hits.map((h: { score: number }) => h.score));
  }, 120_000);
});
