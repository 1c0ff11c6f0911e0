import { describe, expect, it } from "vitest";
import { buildGraph, type GraphEdge, normalizeByDegree, personalizedPageRank, topScores } from "../../src/graph/ppr.ts";

/** A star: hub 0 joined to leaves 1..n. */
function star(n: number, type = "part_of", hub = 0): GraphEdge[] {
  return Array.from({ length: n }, (_, i) => ({ from: hub + i + 1, to: hub, type }));
}

/** Probability of stepping from → to, summed over the entries of every type. */
function probOf(g: ReturnType<typeof buildGraph>, from: number, to: number): number {
  const u = g.index.get(from)!, v = g.index.get(to)!;
  let p = 0;
  for (let k = g.offsets[u]; k < g.offsets[u + 1]; k++) if (g.targets[k] === v) p += g.prob[k];
  return p;
}

describe("buildGraph", () => {
  it("treats edges as undirected and weights taxonomy at 0.1 against 1.0", () => {
    const g = buildGraph([
      { from: 1, to: 2, type: "works_at" },
      { from: 1, to: 3, type: "tagged_with" },
    ]);
    expect(probOf(g, 1, 2)).toBeCloseTo(1 / 1.1);
    expect(probOf(g, 1, 3)).toBeCloseTo(0.1 / 1.1);
    expect(probOf(g, 2, 1)).toBe(1); // reverse direction exists
    expect(probOf(g, 3, 1)).toBe(1);
  });

  it("merges same-type parallel edges, keeps types apart, drops self-loops, honours per-type overrides", () => {
    const g = buildGraph([
      { from: 1, to: 2, type: "uses" },
      { from: 2, to: 1, type: "uses" },
      { from: 2, to: 1, type: "depends_on" },
      { from: 1, to: 1, type: "uses" },
      { from: 1, to: 3, type: "alias_of" },
      { from: 1, to: 4, type: "mentions" },
    ], { typeWeights: { mentions: 0.5 } });
    expect(g.degree[g.index.get(1)!]).toBe(3);
    const u = g.index.get(1)!;
    expect(g.offsets[u + 1] - g.offsets[u]).toBe(4); // 2 via depends_on and via uses (weight 2), 3, 4
    expect(probOf(g, 1, 2)).toBeCloseTo(3 / 3.6);
    expect(probOf(g, 1, 4)).toBeCloseTo(0.5 / 3.6);
    expect(g.types).toEqual(["alias_of", "depends_on", "mentions", "uses"]);
    expect(probOf(g, 1, 1)).toBe(0);
  });

  it("does not depend on edge order", () => {
    const edges = [...star(30), { from: 5, to: 40, type: "uses" }, { from: 40, to: 41, type: "tagged_with" }];
    const a = buildGraph(edges);
    const b = buildGraph([...edges].reverse());
    expect(Array.from(b.targets)).toEqual(Array.from(a.targets));
    expect(Array.from(b.prob)).toEqual(Array.from(a.prob));
    expect(Array.from(b.ids)).toEqual(Array.from(a.ids));
  });

  it("dampens only nodes above the hub threshold, by sqrt(T/d), also on edges into the hub", () => {
    const g = buildGraph([...star(100), { from: 1, to: 500, type: "part_of" }, { from: 200, to: 201, type: "uses" }], { hubMinDegree: 4 });
    // Nearly every node has degree 1 or 2, so the mean cap (8 × ~2) is below the hub's 100, and the floor 4 wins over both.
    expect(g.hubThreshold).toBe(4);
    const h = Math.sqrt(4 / 100);
    expect(g.damp[g.index.get(0)!]).toBeCloseTo(h);
    expect(g.damp[g.index.get(1)!]).toBe(1);
    // Leaf 1 has two part_of edges: to the hub (scaled by h) and to 500.
    expect(probOf(g, 1, 0)).toBeCloseTo(h / (1 + h));
    expect(probOf(g, 1, 500)).toBeCloseTo(1 / (1 + h));
    const off = buildGraph(star(100), { hubMinDegree: 4, hubDampening: false });
    expect(off.damp[0]).toBe(1);
  });

  it("takes the hub threshold from the degree percentile when it exceeds the floor", () => {
    const edges: GraphEdge[] = [];
    // 100 nodes in a ring (degree 2) plus node 0 joined to 40 of them.
    for (let i = 1; i <= 100; i++) edges.push({ from: i, to: (i % 100) + 1, type: "uses" });
    for (let i = 1; i <= 40; i++) edges.push({ from: 0, to: i, type: "uses" });
    // Degrees: 60 × 2, 40 × 3, one × 40; mean 2.77.
    expect(buildGraph(edges, { hubMinDegree: 1, hubPercentile: 0.5 }).hubThreshold).toBe(2);
    expect(buildGraph(edges, { hubMinDegree: 1, hubPercentile: 0.99 }).hubThreshold).toBe(3);
    expect(buildGraph(edges, { hubMinDegree: 1, hubPercentile: 1, hubMeanMultiple: 100 }).hubThreshold).toBe(40);
    // The mean cap: 8 × 2.77 rounds up to 23, below the top degree 40, so node 0 stays a hub.
    expect(buildGraph(edges, { hubMinDegree: 1, hubPercentile: 1 }).hubThreshold).toBe(23);
  });
});

describe("personalizedPageRank", () => {
  const chain: GraphEdge[] = [
    { from: 1, to: 2, type: "created" },
    { from: 3, to: 2, type: "covers" },
    { from: 3, to: 4, type: "part_of" },
    { from: 5, to: 6, type: "uses" },
  ];

  it("push agrees with power iteration", () => {
    const edges = [...chain, ...star(40, "tagged_with", 100), { from: 101, to: 2, type: "uses" }];
    const g = buildGraph(edges, { hubMinDegree: 8 });
    const seeds = new Map([[1, 1], [104, 0.5]]);
    const push = personalizedPageRank(g, seeds, { epsilon: 1e-9 });
    const power = personalizedPageRank(g, seeds, { method: "power", iterations: 30, tol: 1e-12 });
    const pushTotal = [...push.values()].reduce((a, b) => a + b, 0);
    expect(pushTotal).toBeGreaterThan(0.99);
    // Power stops at 30 rounds, so compare with the push (tighter) result loosely.
    for (const [id, s] of power) expect(push.get(id) ?? 0).toBeCloseTo(s, 2);
    const powerTotal = [...power.values()].reduce((a, b) => a + b, 0);
    expect(powerTotal).toBeCloseTo(1, 9);
  });

  it("reaches nodes against edge direction and never leaves the seed's component", () => {
    const g = buildGraph(chain);
    const s = personalizedPageRank(g, new Map([[1, 1]]));
    expect(topScores(s, 3, new Set([1])).map((h) => h.id)).toEqual([2, 3, 4]);
    expect(s.has(5)).toBe(false);
    expect(s.has(6)).toBe(false);
  });

  it("lets a semantic neighbour outrank a taxonomy neighbour", () => {
    const g = buildGraph([
      { from: 1, to: 2, type: "uses" },
      { from: 1, to: 3, type: "tagged_with" },
    ]);
    const s = personalizedPageRank(g, new Map([[1, 1]]));
    expect(s.get(2)!).toBeGreaterThan(5 * s.get(3)!);
  });

  it("dampening cuts what flows through a mega-hub to unrelated leaves", () => {
    // Seed 1 uses 2 directly, and is one of 60 members of hub 0.
    const edges = [...star(60), { from: 1, to: 1000, type: "uses" }];
    const damped = buildGraph(edges, { hubMinDegree: 8 });
    const h = damped.damp[damped.index.get(0)!];
    expect(h).toBeLessThan(1);
    const on = personalizedPageRank(damped, new Map([[1, 1]]), { epsilon: 1e-8 });
    const off = personalizedPageRank(buildGraph(edges, { hubDampening: false }), new Map([[1, 1]]), { epsilon: 1e-8 });
    // Less goes into the hub and the hub passes on less: a leaf behind it gets under h of its undamped share.
    expect(on.get(30)!).toBeLessThan(off.get(30)! * h);
    expect(on.get(1000)!).toBeGreaterThan(off.get(1000)!);
    expect(topScores(on, 1, new Set([1]))[0].id).toBe(1000);
  });

  it("is deterministic and ignores seed insertion order", () => {
    const edges = [...chain, ...star(20, "part_of", 50)];
    const g = buildGraph(edges);
    const a = personalizedPageRank(g, new Map([[1, 2], [52, 1]]));
    const b = personalizedPageRank(g, new Map([[52, 1], [1, 2]]));
    expect([...b.entries()].sort((x, y) => x[0] - y[0])).toEqual([...a.entries()].sort((x, y) => x[0] - y[0]));
  });

  it("gives the same answer on a reused graph, even after a run stopped by the push cap", () => {
    const g = buildGraph([...chain, ...star(30, "uses", 50), { from: 4, to: 51, type: "uses" }]);
    const first = personalizedPageRank(g, new Map([[1, 1]]));
    personalizedPageRank(g, new Map([[52, 1]]), { maxPushes: 3 });
    personalizedPageRank(g, new Map([[60, 1]]), { method: "power" });
    expect(personalizedPageRank(g, new Map([[1, 1]]))).toEqual(first);
  });

  it("returns nothing for unknown or zero-weight seeds, and settles an isolated seed on itself", () => {
    const g = buildGraph(chain);
    expect(personalizedPageRank(g, new Map([[999, 1]])).size).toBe(0);
    expect(personalizedPageRank(g, new Map([[1, 0]])).size).toBe(0);
    expect(personalizedPageRank(buildGraph([]), new Map([[1, 1]])).size).toBe(0);
    expect(() => personalizedPageRank(g, new Map([[1, 1]]), { alpha: 0 })).toThrow(RangeError);
  });

  it("boosts the edge types a query evokes, in both solvers", () => {
    // Seed 1 built 2 and works with 3; 2 and 3 lead on to 20 and 30.
    const edges: GraphEdge[] = [
      { from: 1, to: 2, type: "created" }, { from: 1, to: 3, type: "member_of" },
      { from: 2, to: 20, type: "on_call_for" }, { from: 3, to: 30, type: "uses" },
    ];
    const g = buildGraph(edges);
    const seeds = new Map([[1, 1]]);
    const plain = personalizedPageRank(g, seeds, { epsilon: 1e-9 });
    expect(plain.get(20)!).toBeCloseTo(plain.get(30)!, 12);
    const boost = new Map([["created", 5], ["on_call_for", 5]]);
    const pushed = personalizedPageRank(g, seeds, { epsilon: 1e-9, typeBoost: boost });
    expect(pushed.get(20)!).toBeGreaterThan(3 * pushed.get(30)!);
    const power = personalizedPageRank(g, seeds, { method: "power", tol: 1e-12, typeBoost: boost });
    for (const [id, s] of pushed) expect(power.get(id)!).toBeCloseTo(s, 2);
    // A zero boost switches a type off for the query.
    const off = personalizedPageRank(g, seeds, { typeBoost: new Map([["member_of", 0]]) });
    expect(off.has(3)).toBe(false);
    expect(off.has(30)).toBe(false);
    // Unknown types and a neutral boost change nothing.
    expect(personalizedPageRank(g, seeds, { typeBoost: new Map([["nope", 9], ["uses", 1]]) })).toEqual(personalizedPageRank(g, seeds));
  });

  it("normalizeByDegree lets a specific node beat a well-connected one", () => {
    // 2 is a direct neighbour with many other links; 9 sits behind 3 with no other links.
    const edges: GraphEdge[] = [{ from: 1, to: 2, type: "uses" }, { from: 1, to: 3, type: "uses" }, { from: 3, to: 9, type: "uses" }];
    for (let i = 100; i < 130; i++) edges.push({ from: 2, to: i, type: "uses" });
    const g = buildGraph(edges, { hubDampening: false });
    const s = personalizedPageRank(g, new Map([[1, 1]]));
    expect(s.get(2)!).toBeGreaterThan(s.get(9)!);
    const n = normalizeByDegree(g, s);
    expect(n.get(9)!).toBeGreaterThan(n.get(2)!);
    expect(n.get(9)).toBeCloseTo(s.get(9)! / 1);
    expect(n.get(2)).toBeCloseTo(s.get(2)! / Math.sqrt(31));
  });

  it("topScores sorts by score then ascending id", () => {
    const s = new Map([[3, 0.2], [1, 0.2], [2, 0.5], [4, 0.1]]);
    expect(topScores(s, 3)).toEqual([{ id: 2, score: 0.5 }, { id: 1, score: 0.2 }, { id: 3, score: 0.2 }]);
    expect(topScores(s, 2, new Set([2])).map((h) => h.id)).toEqual([1, 3]);
  });
});
