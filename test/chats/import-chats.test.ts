/**
 * `cairn import chatgpt|claude`: the hand-made exports in fixtures/chats/
 * (a single conversations.json, its shards, a directory, the zip as
 * downloaded) stored through the conversation door: one session per
 * conversation with its date and title, one turn per shown message with its
 * speaker, time and id; ChatGPT's off-branch, hidden, reasoning and tool
 * messages left out and counted; Claude's thinking left out, attachments'
 * text kept. Importing again stores nothing; a newer export adds only what
 * is new. Screened (quarantine), redacted at the read seam, and under the
 * review posture filed as proposals.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { importChats, type ImportOptions, type ImportSummary } from "../../src/chats/import-chats.ts";
import { listChunksAfter } from "../../src/store/chunks.ts";
import { tempDir, type TestMemory } from "../_helpers/memory.ts";
import { useTestMemories } from "../_helpers/memories.ts";

const FX = resolve(new URL("../../fixtures/chats", import.meta.url).pathname);
const fresh = useTestMemories({ CAIRN_EMBED_KIND: "none" });
const run = (m: TestMemory, paths: string[], o: Partial<ImportOptions> & Pick<ImportOptions, "format">): Promise<ImportSummary> =>
  importChats((body, opts) => m.memory.ingestConversation(body, opts), paths, o);

/** Every stored turn as `session | speaker: text` with its labels, sorted (ids differ between stores). */
async function turns(m: TestMemory) {
  const out: { session: string; title: string; content: string; time?: string; turnId?: string; flagged: boolean; date?: string; stitle?: string }[] = [];
  for (const c of await listChunksAfter(m.memory.db.client, 0, 10_000)) {
    const conv = (c.meta as { conversation: Record<string, string> }).conversation;
    out.push({ session: conv.session, title: c.title!, content: c.content, time: conv.time, turnId: conv.turn_id, flagged: c.flagged, date: conv.session_date, stitle: conv.session_title });
  }
  return out.sort((a, b) => (a.session + a.title < b.session + b.title ? -1 : 1));
}
const recall = async (m: TestMemory, query: string) => (await (await m.req("POST", "/recall", { query, limit: 5 })).json()).hits as { title: string; content: string }[];

describe("cairn import chatgpt", () => {
  it("stores the shown branch of each conversation: speakers, times, ids, date and title; left-out messages counted", async () => {
    const m = await fresh();
    const s = await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", me: "Ana" });
    expect(s).toMatchObject({ conversations: 4, stored: 4, unchanged: 0, empty: 0, unreadable: [], failed: [] });
    expect(s.turns).toMatchObject({ created: 12, duplicate: 0, removed: 0 });
    expect(s.leftOut).toEqual({ branch: 2, hidden: 1, reasoning: 1, tool: 2, empty: 1 });
    const all = await turns(m);
    const sourdough = all.filter((t) => t.session === "chatgpt:6a1f0c3e-0001-4d2e-9a51-5f1e2b7c0d01");
    expect(sourdough.map((t) => t.title)).toEqual([
      "Ana: My sourdough starter smells like nail polish remover. Is it dead?",
      "Ana: [image] I fed it at 8am yesterday and it doubled by noon. Photo attached. [attached: starter.jpg]",
      expect.stringMatching(/^ChatGPT: Doubling in four hours means it is ready/),
      expect.stringMatching(/^ChatGPT: It is hungry, not dead/),
    ]);
    const first = sourdough.find((t) => t.title.startsWith("Ana: My sourdough"))!;
    expect(first).toMatchObject({ time: "2024-03-05T14:02:11.250Z", turnId: "u1", date: "5 March 2024, 14:02 UTC", stitle: "Sourdough starter rescue" });
    expect(first.content).toMatch(/^Session chatgpt:6a1f0c3e-0001-4d2e-9a51-5f1e2b7c0d01 · 5 March 2024, 14:02 UTC · Sourdough starter rescue\n/);
    const text = all.map((t) => `${t.title}\n${t.content}`).join("\n");
    expect(text).not.toContain("Throw it away"); // the regenerated answer the user did not keep
    expect(text).not.toContain("vigorous"); // model reasoning
    expect(text).not.toContain("print(310"); // a tool call
    // ChatGPT's conversation without current_node or create_time: the newest branch, dated by update_time.
    const balcony = all.filter((t) => t.session.endsWith("0d03"));
    expect(balcony.map((t) => t.title)).toEqual(["Ana: Which vegetables can I sow in a shady balcony box in April?", expect.stringMatching(/^ChatGPT: Lettuce, spinach/)]);
    expect(balcony[0].date).toBe("4 April 2024, 14:03 UTC");

    const hits = await recall(m, "sourdough starter smells like nail polish remover");
    expect(hits[0].title).toMatch(/^Ana: My sourdough starter/);
  }, 60_000);

  it("quarantines an injection attempt and redacts an email address at the read seam", async () => {
    const m = await fresh();
    const s = await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", me: "Ana" });
    expect(s.turns.flagged).toBeGreaterThanOrEqual(1);
    const flagged = (await turns(m)).filter((t) => t.flagged);
    expect(flagged.some((t) => t.title.includes("Ignore all previous instructions"))).toBe(true);
    const r = await m.req("POST", "/recall", { query: "passwords evil.example", limit: 5 });
    expect(r.status).toBe(200);
    expect(JSON.stringify(await r.json())).not.toContain("Ignore all previous");
    const hits = await recall(m, "send the summary before Friday");
    expect(hits[0].title).toContain("[redacted:email]");
    expect(hits[0].title).not.toContain("ana.ribeiro@example.com");
    // Storage stays verbatim (SPEC §1 trust rules).
    expect((await turns(m)).some((t) => t.title.includes("ana.ribeiro@example.com"))).toBe(true);
  }, 60_000);

  it("POST /dsar by the email a chat named erases every imported turn holding it, and the rest of the chat stays", async () => {
    const m = await fresh();
    await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", me: "Ana" });
    const holding = async () => (await turns(m)).filter((t) => `${t.title}\n${t.content}`.includes("ana.ribeiro@example.com"));
    const before = await holding();
    // A turn's chunk carries its neighbours, so more than the one message holds the address.
    expect(before.length).toBeGreaterThan(1);
    const session = before[0]!.session;
    const total = (await turns(m)).filter((t) => t.session === session).length;
    const r = await m.req("POST", "/dsar", { email: "ana.ribeiro@example.com" });
    expect(r.status).toBe(200);
    expect((await r.json()).certificate.erased.chunk_ids).toHaveLength(before.length);
    expect(await holding()).toEqual([]);
    expect((await turns(m)).filter((t) => t.session === session)).toHaveLength(total - before.length);
    const db = JSON.stringify((await m.memory.db.execute("SELECT * FROM chunks")).rows);
    expect(db).not.toContain("ana.ribeiro@example.com");
  }, 60_000);

  it("--include-tools keeps tool calls and their output as turns", async () => {
    const m = await fresh();
    const s = await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", includeTools: true });
    expect(s.leftOut.tool).toBe(0);
    expect(s.turns.created).toBe(14);
    const titles = (await turns(m)).map((t) => t.title);
    expect(titles).toContain("ChatGPT tool python: 880");
    expect(titles).toEqual(expect.arrayContaining([expect.stringMatching(/^ChatGPT tool python: \[to python\] ```python/)]));
  }, 60_000);

  it("reads the shards, their directory and the downloaded zip as the single file", async () => {
    const want = await (async () => { const m = await fresh(); await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt" }); return turns(m); })();
    for (const paths of [
      [join(FX, "chatgpt-sharded", "conversations-000.json"), join(FX, "chatgpt-sharded", "conversations-001.json")],
      [join(FX, "chatgpt-sharded")],
      [join(FX, "chatgpt-export.zip")],
    ]) {
      const m = await fresh();
      const s = await run(m, paths, { format: "chatgpt" });
      expect(s.parts).toBe(2);
      expect(s.turns.created).toBe(12);
      expect(await turns(m)).toEqual(want);
    }
  }, 60_000);

  it("importing the same export twice stores nothing the second time", async () => {
    const m = await fresh();
    await run(m, [join(FX, "chatgpt-export.zip")], { format: "chatgpt", me: "Ana" });
    const count = async (sql: string) => Number((await m.memory.db.execute(sql)).rows[0].n);
    const before = { chunks: await count("SELECT COUNT(*) AS n FROM chunks"), audit: await count("SELECT COUNT(*) AS n FROM audit_log"), tomb: await count("SELECT COUNT(*) AS n FROM tombstones") };
    const again = await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", me: "Ana" });
    expect(again).toMatchObject({ conversations: 4, stored: 0, unchanged: 4 });
    expect(again.turns).toMatchObject({ created: 0, removed: 0, duplicate: 12 });
    expect({ chunks: await count("SELECT COUNT(*) AS n FROM chunks"), audit: await count("SELECT COUNT(*) AS n FROM audit_log"), tomb: await count("SELECT COUNT(*) AS n FROM tombstones") }).toEqual(before);
  }, 60_000);

  it("a newer export adds only what is new: the grown chat's new turns (and the windows they change), and the new chat", async () => {
    const m = await fresh();
    await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt", me: "Ana" });
    const s = await run(m, [join(FX, "chatgpt-newer", "conversations.json")], { format: "chatgpt", me: "Ana" });
    expect(s).toMatchObject({ conversations: 5, stored: 2, unchanged: 3 });
    // Two new turns in the sourdough chat, the two before them re-rendered (their windows now hold the new turns), two in the new chat.
    expect(s.turns).toMatchObject({ created: 6, removed: 2 });
    const sourdough = (await turns(m)).filter((t) => t.session.endsWith("0d01"));
    expect(sourdough).toHaveLength(6);
    expect(sourdough.map((t) => t.turnId).sort()).toEqual(["a1", "a2", "a3", "u1", "u2", "u3"]);
    // The store now equals a fresh import of the newer export.
    const ref = await fresh();
    await run(ref, [join(FX, "chatgpt-newer", "conversations.json")], { format: "chatgpt", me: "Ana" });
    expect(await turns(m)).toEqual(await turns(ref));
    expect((await run(m, [join(FX, "chatgpt-newer", "conversations.json")], { format: "chatgpt", me: "Ana" })).turns).toMatchObject({ created: 0, removed: 0 });
  }, 60_000);

  it("under the review posture every turn is filed as a proposal, once", async () => {
    const m = await fresh({ CAIRN_WRITE_POSTURE: "review" });
    const s = await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt" });
    expect(s.turns).toMatchObject({ created: 0, proposed: 12 });
    expect((await m.memory.db.execute("SELECT COUNT(*) AS n FROM chunks")).rows[0].n).toBe(0);
    const pending = async () => Number((await m.memory.db.execute("SELECT COUNT(*) AS n FROM proposals WHERE status = 'pending'")).rows[0].n);
    expect(await pending()).toBe(12);
    await run(m, [join(FX, "chatgpt", "conversations.json")], { format: "chatgpt" });
    expect(await pending()).toBe(12);
  }, 60_000);
});

describe("cairn import claude", () => {
  it("stores each message in order: content blocks without thinking, attachments' text, forks kept", async () => {
    const m = await fresh();
    const s = await run(m, [join(FX, "claude", "conversations.json")], { format: "claude", me: "Ana" });
    expect(s).toMatchObject({ conversations: 3, stored: 3, empty: 0, unreadable: [], failed: [] });
    expect(s.turns.created).toBe(9);
    expect(s.leftOut).toMatchObject({ reasoning: 1, tool: 2, empty: 1 });
    const all = await turns(m);
    const plan = all.filter((t) => t.session === "claude:0b6e5d4c-1111-4a2b-9c3d-7e8f90a1b2c1");
    expect(plan.find((t) => t.turnId === "m-3")!.title).toMatch(/^Ana: Here is my current log\. Also, which shoes\? \[attached: runlog\.csv\] week,km 1,20 2,22 3,24 \[file: shoes\.png\]$/);
    expect(plan.find((t) => t.turnId === "m-2")!.title).toMatch(/^Claude: Sixteen weeks is enough/);
    expect(plan[0]).toMatchObject({ date: "2 June 2024, 07:15 UTC", stitle: "Marathon training plan" });
    expect(all.map((t) => t.title).join("\n")).not.toContain("gradual"); // thinking
    const fork = all.filter((t) => t.session.endsWith("b2c2")).map((t) => t.turnId).sort();
    expect(fork).toEqual(["n-1", "n-2", "n-3"]);
    const untitled = all.filter((t) => t.session.endsWith("b2c3"));
    expect(untitled.map((t) => t.stitle)).toEqual([undefined, undefined]);
    expect(untitled.map((t) => t.title)).toEqual(expect.arrayContaining(["Ana: Translate 'the kiln is cooling' into Portuguese."]));
  }, 60_000);

  it("reads the downloaded zip as the file, and is idempotent", async () => {
    const a = await fresh();
    await run(a, [join(FX, "claude", "conversations.json")], { format: "claude" });
    const b = await fresh();
    expect((await run(b, [join(FX, "claude-export.zip")], { format: "claude" })).parts).toBe(1);
    expect(await turns(b)).toEqual(await turns(a));
    expect((await run(b, [join(FX, "claude-export.zip")], { format: "claude" })).turns.created).toBe(0);
  }, 60_000);
});

describe("cairn import: text the door would refuse", () => {
  const claudeExport = (texts: string[]) => {
    const f = join(tempDir("chats-"), "conversations.json");
    writeFileSync(f, JSON.stringify([{ uuid: "c-text", name: "Long one", created_at: "2024-01-01T00:00:00Z", chat_messages: texts.map((text, i) => (
      { uuid: `m${i + 1}`, sender: i % 2 ? "assistant" : "human", text, created_at: `2024-01-01T00:00:0${i}Z` })) }]));
    return f;
  };

  it("a message longer than a turn, cut where no space is (emoji, unspaced script), is stored whole: no pair split into lone halves", async () => {
    const m = await fresh();
    // 60,001 UTF-16 units: the 40,000-unit cut lands between the two halves of an emoji.
    const long = `a${"\u{1F600}".repeat(30_000)}`;
    const s = await run(m, [claudeExport([long, "Nice."])], { format: "claude" });
    expect(s.failed).toEqual([]);
    expect(s).toMatchObject({ stored: 1 });
    // Two turns of the one message (m1, m1#2) and the reply; a turn's chunk carries its neighbours, so m1's holds both halves.
    expect(s.turns.created + s.turns.duplicate).toBe(3);
    const m1 = (await turns(m)).find((t) => t.turnId === "m1")!;
    const said = m1.content.split("\n").filter((l) => l.startsWith("User: ")).map((l) => l.slice("User: ".length)).join("");
    expect(said.length).toBe(long.length);
    expect(said === long).toBe(true); // (not toBe: a 60,000-character diff helps no one)
  }, 60_000);

  it("a conversation holding a NUL or a lone surrogate is refused naming the message; the others are stored", async () => {
    const m = await fresh();
    const conv = (uuid: string, text: string) => ({ uuid, name: uuid, created_at: "2024-01-01T00:00:00Z", chat_messages: [
      { uuid: `${uuid}-1`, sender: "human", text: "A clean opening line.", created_at: "2024-01-01T00:00:00Z" },
      { uuid: `${uuid}-2`, sender: "assistant", text, created_at: "2024-01-01T00:00:01Z" }] });
    const f = join(tempDir("chats-"), "conversations.json");
    // JSON.stringify writes the lone surrogate as the escape `\ud800`, as an export can.
    writeFileSync(f, JSON.stringify([conv("nul", "hello \u0000 there"), conv("clean", "Kiln fired to cone six."), conv("half", "an emoji cut \ud83d in half")]));
    const s = await run(m, [f], { format: "claude" });
    expect(s.failed.map((x) => [x.conversation, x.error])).toEqual([
      ["claude:nul", "invalid_request: message nul-2: turns[1].text must not contain U+0000 (NUL)"],
      ["claude:half", "invalid_unicode: message half-2: turns[1].text holds a lone surrogate (not valid Unicode)"],
    ]);
    expect([...new Set((await turns(m)).map((t) => t.session))]).toEqual(["claude:clean"]);
    // Importing again reports the same and stores nothing new.
    const again = await run(m, [f], { format: "claude" });
    expect(again.failed).toHaveLength(2);
    expect(again.turns.created).toBe(0);
  }, 60_000);
});
