/**
 * The graph leg of recall (SPEC §1 step 6, §2.2, §2.3, §2.4): a chunk that
 * shares no word with the query but is linked by edges to what the query
 * names is found by the graph alone (`source: "graph"`, hop chain in
 * provenance); `graph=false` and the process-wide kill switch turn it off;
 * the in-memory graph follows writes, deletes, domain drops and restarts.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { explainLines } from "../../src/cli/query.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
afterEach(async () => { await t?.close(); });

const NOTES: [string, string][] = [
  ["Ledger", "Ledger is the double-entry store for charges and refunds.\nLedger depends on Granite.\n"],
  ["Granite", "Replicas sit in Frankfurt behind a warm standby; failover is manual.\n"],
  ["Garden", "Tomatoes need deep watering twice a week in summer.\n"],
  ["Payments Team", "Weekly sync on Tuesdays; the backlog lives in the tracker.\n"],
];
const ids: Record<string, number> = {};
async function seed(domain?: string): Promise<void> {
  for (const [title, content] of NOTES) {
    const body: Record<string, unknown> = { title, content };
    if (domain) body.domain = domain;
    const r = await (await t.req("POST", "/ingest/markdown", body)).json();
    ids[title] = r.chunks[0].id;
  }
}
type Hit = { id: number; source: string; provenance: { graph_rank?: number; fts_rank?: number; graph_hops?: { from: { id: number; name: string }; relation: string; to: { id: number; name: string } }[] } };
const recall = async (body: Record<string, unknown>) => (await t.req("POST", "/recall", { provenance: true, limit: 10, ...body })).json();
const QUERY = "what does the ledger depend on";

describe("graph leg in recall", () => {
  beforeEach(async () => {
    t = await openTestMemory();
    await seed();
  });

  it("finds a chunk only the graph links to the query, with source graph and its hop chain", async () => {
    const r = await recall({ query: QUERY });
    const g = (r.hits as Hit[]).find((h) => h.id === ids.Granite)!;
    expect(g, "Granite found").toBeDefined();
    expect(g.source).toBe("graph");
    expect(g.provenance.graph_rank).toBe(0);
    expect(g.provenance.fts_rank).toBeUndefined();
    expect(g.provenance.graph_hops).toEqual([
      { from: { id: expect.any(Number), name: "Ledger" }, relation: "depends_on", to: { id: expect.any(Number), name: "Granite" } },
    ]);
    expect((r.hits as Hit[]).find((h) => h.id === ids.Garden)).toBeUndefined();
    expect(typeof r.telemetry.graph_ms).toBe("number");
    // The lexical hit stays in the top two, found by the other legs. (Since the graph leg is fused after
    // the rerank stage, src/recall/search-scope.ts, a relational query's top graph hit may rank first.)
    expect((r.hits as Hit[]).slice(0, 2).map((h) => h.id)).toContain(ids.Ledger);
    expect((r.hits as Hit[]).find((h) => h.id === ids.Ledger)!.source).not.toBe("graph");
  });

  it("graph=false turns the leg off for one request, and source=graph keeps only graph hits", async () => {
    const off = await recall({ query: QUERY, graph: false });
    expect((off.hits as Hit[]).map((h) => h.id)).not.toContain(ids.Granite);
    expect((off.hits as Hit[]).every((h) => h.provenance.graph_rank === undefined)).toBe(true);
    // GET /search takes the same switch as a query parameter; anything but true/false is refused.
    const search = async (q: string) => (await t.req("GET", `/search?q=${encodeURIComponent(QUERY)}&provenance=true${q}`)).json();
    expect(((await search("")).hits as Hit[]).map((h) => h.id)).toContain(ids.Granite);
    expect(((await search("&graph=false")).hits as Hit[]).map((h) => h.id)).not.toContain(ids.Granite);
    const bad = await t.req("GET", `/search?q=ledger&graph=maybe`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: "invalid_request", details: { field: "graph" } });
    const only = await recall({ query: QUERY, source: "graph" });
    expect((only.hits as Hit[]).map((h) => h.id)).toEqual([ids.Granite]);
  });

  it("follows writes at once: a new edge is walked by the next query", async () => {
    const q = "who runs the garden";
    expect(((await recall({ query: q })).hits as Hit[]).some((h) => h.source === "graph")).toBe(false);
    await t.req("POST", "/ingest/markdown", { title: "Rota", content: "Payments Team manages Garden.\n" });
    const r = await recall({ query: "what manages the garden" });
    const team = (r.hits as Hit[]).find((h) => h.id === ids["Payments Team"]);
    expect(team?.source).toBe("graph");
  });

  it("forgets deleted chunks and dropped domains", async () => {
    await t.req("DELETE", `/memory/${ids.Granite}`);
    expect(((await recall({ query: QUERY })).hits as Hit[]).map((h) => h.id)).not.toContain(ids.Granite);
    await t.req("POST", "/domains", { name: "ops" });
    await t.req("POST", "/ingest/markdown", { title: "Vault", content: "Vault depends on Quarry.\n", domain: "ops" });
    await t.req("POST", "/ingest/markdown", { title: "Quarry", content: "Cold storage behind a single bucket.\n", domain: "ops" });
    expect(t.memory.graph.model.named("quarry")).toHaveLength(1);
    await t.req("DELETE", "/domains/ops?confirm=ops");
    await recall({ query: "what does vault depend on" });
    expect(t.memory.graph.model.named("quarry")).toHaveLength(0);
  });

  it("cairn explain prints the graph hops", async () => {
    const lines = await explainLines(t.memory, QUERY, 5);
    expect(lines.some((l) => l.includes("hop: Ledger -[depends_on]-> Granite"))).toBe(true);
    expect(lines.some((l) => /leg graph/.test(l))).toBe(true);
  });
});

describe("graph leg as of a past time (SPEC §4.1 at, §4.6)", () => {
  it("walks only the edges the store held at `at`", async () => {
    let now = Date.parse("2025-03-01T00:00:00Z");
    t = await openTestMemory({}, { clock: () => new Date(now) });
    await seed();
    now += 3_600_000;
    await t.req("POST", "/ingest", { title: "Ops", content: "Ops note.", relations: [{ from: "Ledger", to: "Garden", type: "depends_on" }] });
    const found = async (at?: string) => ((await recall({ query: QUERY, ...(at ? { at } : {}) })).hits as Hit[]).filter((h) => h.source === "graph").map((h) => h.id);
    expect(await found()).toEqual(expect.arrayContaining([ids.Granite, ids.Garden]));
    expect(await found("2025-03-01T00:30:00Z")).toEqual([ids.Granite]);
  });
});

describe("graph leg switches and persistence", () => {
  it("CAIRN_RECALL_GRAPH_ENABLED=false kills the leg process-wide, even when a request asks for it", async () => {
    t = await openTestMemory({ CAIRN_RECALL_GRAPH_ENABLED: "false" });
    await seed();
    const r = await recall({ query: QUERY, graph: true });
    expect((r.hits as Hit[]).map((h) => h.id)).not.toContain(ids.Granite);
    expect((r.hits as Hit[]).every((h) => h.provenance.graph_rank === undefined)).toBe(true);
  });

  it("reloads the graph from the store after a restart and answers the same", async () => {
    const dir = tempDir();
    t = await openTestMemory({}, {}, dir);
    await seed();
    const before = await recall({ query: QUERY });
    await t.memory.close();
    t = await openTestMemory({}, {}, dir);
    const after = await recall({ query: QUERY });
    expect(after.hits.map((h: Hit) => [h.id, h.source, h.provenance.graph_hops])).toEqual(before.hits.map((h: Hit) => [h.id, h.source, h.provenance.graph_hops]));
    expect(after.hits.some((h: Hit) => h.source === "graph")).toBe(true);
  });
});
