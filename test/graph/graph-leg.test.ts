/**
 * The graph leg's rules (SPEC §1 step 6) on a small in-memory graph: seeds
 * from the query and the top hits, only visible entities seed, graph rescue
 * leaves the top fused chunks out, the fusion weight follows the query
 * (relational / names entities / hits only), taxonomy edges weigh less
 * than semantic ones, and `at` walks the past graph.
 */
import { describe, expect, it } from "vitest";
import { emptyDelta } from "../../src/graph/graph-delta.ts";
import { DEFAULT_GRAPH_LEG_PARAMS, runGraphLeg } from "../../src/graph/graph-leg.ts";
import { GraphModel } from "../../src/graph/graph-model.ts";

const T0 = "2025-01-01T00:00:00.000Z";
const T1 = "2025-06-01T00:00:00.000Z";

/** Entities 1..n named by `names`; entity i's own chunk is 100 + i (subject link). */
function model(names: string[], edges: [number, string, number, string?][]): GraphModel {
  const m = new GraphModel();
  const d = emptyDelta();
  names.forEach((n, i) => {
    d.entities.push({ id: i + 1, domain: "global", name: n.toLowerCase(), displayName: n });
    d.links.push({ entityId: i + 1, chunkId: 101 + i, subject: true });
  });
  edges.forEach(([from, type, to, at], k) => d.inserted.push({ id: k + 1, domain: "global", fromId: from, toId: to, type, createdAt: at ?? T0, edgeSource: "structured" }));
  m.apply(d);
  return m;
}
const all = () => true;
const run = (m: GraphModel, query: string, extra: Partial<Parameters<typeof runGraphLeg>[1]> = {}) =>
  runGraphLeg(m, { query, seedChunkIds: [], filter: all, limit: 10, ...extra });

describe("graph leg", () => {
  // 1 Ledger -depends_on-> 2 Granite -located_in-> 3 Frankfurt; 4 Payments tags Ledger; 5 Garden alone.
  const names = ["Ledger", "Granite", "Frankfurt", "Payments", "Garden"];
  const g = model(names, [[1, "depends_on", 2], [2, "located_in", 3], [1, "tagged_with", 4]]);

  it("ranks neighbours of the query's entities, not the entities' own chunks, with hop chains", () => {
    const r = run(g, "what does ledger depend on");
    expect(r.querySeeds).toEqual([1]);
    expect(r.ids[0]).toBe(102); // Granite, one semantic hop
    expect(r.ids).not.toContain(101); // the query entity's own chunk is for the other legs
    expect(r.ids).not.toContain(105); // unconnected
    expect(r.hops.get(102)).toEqual([{ from: { id: 1, name: "Ledger" }, relation: "depends_on", to: { id: 2, name: "Granite" } }]);
    expect(r.hops.get(103)?.map((h) => h.relation)).toEqual(["depends_on", "located_in"]);
  });

  it("follows semantic edges and adds nothing through a tag (issue 22: a shared tag is no relation)", () => {
    const r = run(g, "tell me about ledger");
    expect(r.ids).toContain(102); // Granite (semantic)
    expect(r.ids).not.toContain(104); // the Payments tag's chunk
  });

  it("gives the leg its fusion weight by query kind", () => {
    expect(run(g, "what does ledger depend on")).toMatchObject({ relational: true, weight: DEFAULT_GRAPH_LEG_PARAMS.weightRelational });
    expect(run(g, "who maintains ledger")).toMatchObject({ relational: false, weight: DEFAULT_GRAPH_LEG_PARAMS.weightWithQueryEntities });
    const hitsOnly = run(g, "nothing named here", { seedChunkIds: [101] });
    expect(hitsOnly).toMatchObject({ querySeeds: [], hitSeeds: [1], weight: DEFAULT_GRAPH_LEG_PARAMS.weightHitsOnly });
    expect(run(g, "nothing named here").ids).toEqual([]);
  });

  it("leaves the top fused chunks out (graph rescue) and respects the engine's filter", () => {
    const r = run(g, "what does ledger depend on", { seedChunkIds: [102] });
    expect(r.ids).not.toContain(102);
    expect(r.ids).toContain(103);
    const filtered = run(g, "what does ledger depend on", { filter: (id) => id !== 103 });
    expect(filtered.ids).not.toContain(103);
    // An entity whose chunks the request may not see does not seed the walk.
    expect(run(g, "what does ledger depend on", { filter: (id) => id !== 101 }).querySeeds).toEqual([]);
  });

  it("walks the graph as of `at`", () => {
    const h = model(names, [[1, "depends_on", 2], [1, "depends_on", 5, T1]]);
    expect(run(h, "what does ledger depend on").ids).toEqual(expect.arrayContaining([102, 105]));
    const past = run(h, "what does ledger depend on", { atMs: Date.parse("2025-03-01T00:00:00Z") });
    expect(past.ids).toContain(102);
    expect(past.ids).not.toContain(105);
  });
});
