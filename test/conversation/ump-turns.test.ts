/**
 * Issue 24 item 1: a UMP `episodic` record with `scope.session` is a conversation turn — stored like a turn of
 * `POST /ingest/conversation` (title `Speaker: text`, the session's earlier turns in its content, relative dates
 * resolved against the day it was observed, `meta.conversation` labels), over HTTP `/ump/remember` and MCP
 * `ump.remember`, under the open and the review posture; the record itself keeps its verbatim text.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/mcp-server.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
let client: Client | undefined;
afterEach(async () => { await client?.close(); client = undefined; await t?.close(); t = undefined; });

const json = async (res: Response | Promise<Response>) => (await res).json();
const turn = (speaker: string, text: string, extra: Record<string, unknown> = {}) => ({
  ump: "1.0", kind: "episodic", body: { text, structured: { speaker } }, scope: { session: "fifa-chat" },
  time: { observed: "2023-05-08T13:56:00Z" }, ...extra,
});
const TURNS = [
  turn("Maria", "Lovely weekend, we hiked up the ridge and had a picnic by the lake."),
  turn("John", "I went to a pottery class yesterday and made a bowl."),
  turn("Maria", "I signed up for the FIFA tournament next month. What should I be practising before it?"),
  turn("John", "All you need is a gamepad and an hour every evening on passing drills."),
];
// The speaker label decides: Caroline's turn holds more of the question's words (and names Melanie).
const ART = [
  turn("Caroline", "Melanie, I paint sunsets, painting sunsets over the sea is what I paint most.", { scope: { session: "art" } }),
  turn("Melanie", "Lately I paint sunsets too.", { scope: { session: "art" } }),
];
type Hit = { id: number; title?: string; content: string };
const recall = async (m: TestMemory, query: string) => (await json(m.req("POST", "/recall", { query, limit: 5 }))).hits as Hit[];

describe("UMP episodic records with a session go through the conversation door (issue 24)", () => {
  it("over HTTP: the answer turn carries the question before it, the speaker label and the resolved date; the record keeps its text", async () => {
    const m = (t = await openTestMemory());
    const ids: string[] = [];
    for (const body of TURNS) {
      const r = await json(m.req("POST", "/ump/remember", body));
      expect(r.result).toBe("created");
      ids.push(r.id);
    }
    // Only the turn before makes the answer findable by the question's words (the answer says neither FIFA nor practise).
    const hits = await recall(m, "What did John suggest practising before FIFA?");
    expect(hits[0].title).toBe("John: All you need is a gamepad and an hour every evening on passing drills.");
    expect(hits[0].content).toContain("Maria: I signed up for the FIFA tournament next month.");
    expect(hits[0].content).toContain("Session fifa-chat · 8 May 2023");
    const pottery = (await recall(m, "pottery bowl"))[0];
    expect(pottery.content).toContain("(yesterday: 7 May 2023)");
    expect(pottery.content).toContain("picnic");
    // A window holds the two turns before, never the first of four.
    expect(hits[0].content).not.toContain("picnic");
    // The record is unchanged: its body is the turn's own words, and its integrity verifies on read.
    const got = await json(m.req("GET", `/ump/memory/${ids[3]}`));
    expect(got.record.body).toEqual({ text: "All you need is a gamepad and an hour every evening on passing drills.", structured: { speaker: "John" } });
    for (const body of ART) await m.req("POST", "/ump/remember", body);
    expect((await recall(m, "What does Melanie paint?"))[0].title).toBe(`Melanie: ${ART[1].body.text}`);
    const viaUmp = await json(m.req("POST", "/ump/recall", { query: "gamepad passing drills", limit: 5 }));
    expect(viaUmp.results[0].record).toMatchObject({ id: ids[3], kind: "episodic", body: { text: TURNS[3].body.text } });
    // A replay of the same record merges; a record without a session is stored as its plain text.
    expect((await json(m.req("POST", "/ump/remember", TURNS[3]))).result).toBe("merged");
    await m.req("POST", "/ump/remember", { kind: "episodic", body: { text: "The standup moved to ten on Mondays" } });
    const plain = (await recall(m, "standup Mondays"))[0];
    expect(plain.content).toBe("The standup moved to ten on Mondays");
    expect(plain.title).toBeUndefined();
  });

  it("another session's turns never enter the window", async () => {
    const m = (t = await openTestMemory());
    await m.req("POST", "/ump/remember", turn("Ana", "The quarterly budget review is on Thursday.", { scope: { session: "other" } }));
    await m.req("POST", "/ump/remember", turn("John", "All you need is a gamepad."));
    const hit = (await recall(m, "gamepad"))[0];
    expect(hit.title).toBe("John: All you need is a gamepad.");
    expect(hit.content).not.toContain("budget");
  });

  it("over MCP: ump.remember with a session is the same turn, speaker boost included", async () => {
    const m = (t = await openTestMemory());
    const server = createMcpServer(m.memory, async () => operatorActor(await m.memory.ump.operatorDid()));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: "ump-turns", version: "1.0.0" });
    await client.connect(b);
    for (const body of TURNS) {
      const r = await client.callTool({ name: "ump.remember", arguments: body });
      expect((r.structuredContent as { result: string }).result).toBe("created");
    }
    const hits = await recall(m, "What did John suggest practising before FIFA?");
    expect(hits[0].title).toBe("John: All you need is a gamepad and an hour every evening on passing drills.");
    for (const body of ART) await client.callTool({ name: "ump.remember", arguments: body });
    expect((await recall(m, "What does Melanie paint?"))[0].title).toBe(`Melanie: ${ART[1].body.text}`);
  });

  it("under review: the proposal is the windowed turn, and approval stores it with its labels under the handed-out id", async () => {
    const m = (t = await openTestMemory({ CAIRN_WRITE_POSTURE: "review" }));
    const first = await json(m.req("POST", "/ump/remember", TURNS[2]));
    let view = await json(m.req("GET", `/proposals/${first.review.proposal_id}`));
    expect((await m.req("POST", `/proposals/${first.review.proposal_id}/approve?digest=${view.content_digest}`)).status).toBe(200);
    const r = await json(m.req("POST", "/ump/remember", TURNS[3]));
    expect(r.review.status).toBe("pending");
    view = await json(m.req("GET", `/proposals/${r.review.proposal_id}`));
    const ok = await json(m.req("POST", `/proposals/${r.review.proposal_id}/approve?digest=${view.content_digest}`));
    expect(ok).toMatchObject({ status: "approved", record_id: r.id });
    expect(view.content).toContain("Maria: I signed up for the FIFA tournament next month.");
    const hit = (await recall(m, "What did John suggest practising before FIFA?"))[0];
    expect(hit).toMatchObject({ id: ok.promoted_chunk_id, title: "John: All you need is a gamepad and an hour every evening on passing drills." });
    // The speaker label survives approval: the approved turns of a speaker get the boost.
    for (const body of ART) {
      const f = await json(m.req("POST", "/ump/remember", body));
      const v = await json(m.req("GET", `/proposals/${f.review.proposal_id}`));
      await m.req("POST", `/proposals/${f.review.proposal_id}/approve?digest=${v.content_digest}`);
    }
    expect((await recall(m, "What does Melanie paint?"))[0].title).toBe(`Melanie: ${ART[1].body.text}`);
    const got = await json(m.req("GET", `/ump/memory/${r.id}`));
    expect(got.record.body.text).toBe(TURNS[3].body.text);
  });
});
