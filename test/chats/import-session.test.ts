/**
 * `cairn import` is a one-shot writer beside `cairn serve` (docs/vault.md "Chat history"): its session loads and
 * grows no recall index (lexical postings, vector matrix, labels, graph model: a 100 MB export once held ~1 GB in
 * them), a server that was running during the import recalls the imported turns through the change feed, and a
 * server booted afterwards answers exactly as the one that followed live (STYLE 18). A store that fills up stops
 * the import with `capacity_exceeded`, named with the way on, every conversation whole, the summary printed.
 */
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importCommand } from "../../src/cli/import-commands.ts";
import { parseConfig } from "../../src/config/parse-config.ts";
import { openMemoryForRuntime } from "../../src/server.ts";
import { restartableServer } from "../_helpers/booted-server.ts";
import { cairnInProcess } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";

const FX = resolve(new URL("../../fixtures/chats", import.meta.url).pathname);
const srv = restartableServer();
const { env, post } = srv;
type Hit = { id: number; score: number; content: string; speaker?: string };
const QUERIES = ["sourdough starter nail polish", "What did Ana ask about sourdough?", "bread flour hydration", "kitchen notes"];
const answers = async () => {
  const out: { id: number; score: number }[][] = [];
  for (const query of QUERIES) out.push(((await post("/recall", { query, limit: 8 })).body.hits as Hit[]).map((h) => ({ id: h.id, score: h.score })));
  return out;
};

describe("cairn import beside a running server", () => {
  it("holds no recall index while it writes; the running server recalls the imported turns, and one booted afterwards answers the same", async () => {
    await srv.boot();
    // A chunk already stored: a session that loaded the store's indexes would hold it.
    expect((await post("/ingest", { content: "Kitchen notes: the oven runs hot, bake bread ten degrees lower.", title: "kitchen notes" })).status).toBe(200);
    const session = await openMemoryForRuntime(parseConfig(env), { writeOnly: true });
    let failed: boolean;
    try {
      failed = await importCommand(session, "chatgpt", [join(FX, "chatgpt", "conversations.json")], { me: "Ana" }, { out: () => undefined, err: () => undefined, errIsTTY: false });
      const index = session.recallEngine.index;
      expect({ labels: index.labels.size, lexical: index.lexical.size, vectors: index.vectors?.size ?? 0 }).toEqual({ labels: 0, lexical: 0, vectors: 0 });
      expect(session.graph.model.size().linkedChunks).toBe(0);
      await expect(session.recall({ query: "sourdough" })).rejects.toMatchObject({ code: "recall_unavailable" });
    } finally {
      await session.close();
    }
    expect(failed).toBe(false);
    const live = (await post("/recall", { query: QUERIES[0], limit: 8 })).body.hits as Hit[];
    expect(live.some((h) => h.content.includes("Ana: My sourdough starter"))).toBe(true);
    const before = await answers();
    expect(before.every((hits) => hits.length > 0)).toBe(true);
    await srv.boot();
    expect(await answers()).toEqual(before);
  }, 180_000);
});

describe("cairn import into a store that fills up", () => {
  it("stops at the first conversation that does not fit: capacity_exceeded named with the way on, the summary printed, no conversation in part", async () => {
    // The fixture's first conversation has 4 turns, the second 3 (12 turns in all): 5 chunks fit the first only.
    const e = { CAIRN_DB_PATH: join(tempDir(), "c.db") };
    const full = await cairnInProcess(["import", "chatgpt", join(FX, "chatgpt", "conversations.json"), "--me", "Ana"], { ...e, CAIRN_MAX_DOCS: "5" });
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(/^stopped: chatgpt:6a1f0c3e-0002-\S+ \(\S*conversations\.json\): capacity_exceeded: .*CAIRN_MAX_DOCS.*run the import again/m);
    expect(full.stdout).toMatch(/^import chatgpt: 1 conversations \(1 stored, 0 unchanged, 0 empty\), turns 4 created/m);
    // Raised: the rest go in, and the conversation that did not fit is stored whole, none of its turns there before.
    const rest = await cairnInProcess(["import", "chatgpt", join(FX, "chatgpt", "conversations.json"), "--me", "Ana"], e);
    expect(rest.code).toBe(0);
    expect(rest.stdout).toContain("4 conversations (3 stored, 1 unchanged, 0 empty), turns 8 created, 4 already stored, 0 replaced");
  }, 120_000);
});
