import { describe, expect, it } from "vitest";
import { MemoryError } from "../../src/core/errors.ts";
import { type NodeRef, traverse, type TraverseEdge } from "../../src/graph/traverse.ts";

/** An adjacency port over a plain edge list (what the store would answer), in a scrambled order. */
function port(edges: [number, string, number][], names: Record<number, string> = {}) {
  const ref = (id: number): NodeRef => ({ id, name: names[id] ?? `n${id}` });
  const all: TraverseEdge[] = edges.map(([f, type, t], i) => ({ id: i + 1, from: ref(f), to: ref(t), type }));
  const calls: number[] = [];
  const fn = async (node: NodeRef) => {
    calls.push(node.id);
    return all.filter((e) => e.from.id === node.id || e.to.id === node.id).reverse();
  };
  return { fn, ref, calls };
}

const company: [number, string, number][] = [
  [1, "created", 2], // Priya created Ledger
  [3, "on_call_for", 2], // Night Owls on call for Ledger
  [3, "part_of", 4], // Night Owls part of SRE
  [2, "ops:runs_on", 5], // Ledger runs on Cluster
  [5, "ops:located_in", 6],
  [6, "part_of", 7],
  [7, "part_of", 8],
];
const names = { 1: "Priya", 2: "Ledger", 3: "Night Owls", 4: "SRE", 5: "Cluster", 6: "Frankfurt", 7: "EU", 8: "World" };

describe("traverse", () => {
  it("walks breadth-first in both directions up to the depth", async () => {
    const { fn, ref } = port(company, names);
    const r = await traverse(ref(1), fn, { maxDepth: 2 });
    expect(r.nodes.map((n) => [n.name, n.depth])).toEqual([["Priya", 0], ["Ledger", 1], ["Night Owls", 2], ["Cluster", 2]]); // by type: on_call_for < ops:runs_on
    expect(r.edges.map((e) => e.id)).toEqual([1, 2, 4]);
    expect(r.truncated).toBe(false);
  });

  it("clamps depth to 4 and refuses a negative depth", async () => {
    const { fn, ref, calls } = port(company, names);
    const r = await traverse(ref(1), fn, { maxDepth: 9 });
    expect(r.maxDepth).toBe(4);
    expect(r.nodes.find((n) => n.name === "EU")?.depth).toBe(4);
    expect(r.nodes.some((n) => n.name === "World")).toBe(false);
    expect(calls).not.toContain(7); // depth-4 nodes are not expanded
    await expect(traverse(ref(1), fn, { maxDepth: -1 })).rejects.toBeInstanceOf(MemoryError);
  });

  it("filters by exact kind or by namespace prefix", async () => {
    const { fn, ref } = port(company, names);
    const exact = await traverse(ref(3), fn, { kind: "part_of", maxDepth: 4 });
    expect(exact.nodes.map((n) => n.name)).toEqual(["Night Owls", "SRE"]);
    const prefix = await traverse(ref(2), fn, { kind: "ops:", maxDepth: 4 });
    expect(prefix.nodes.map((n) => n.name)).toEqual(["Ledger", "Cluster", "Frankfurt"]);
    await expect(traverse(ref(2), fn, { kind: "Bad Kind" })).rejects.toMatchObject({ code: "relation_invalid" });
    await expect(traverse(ref(2), fn, { kind: "a:b:" })).rejects.toMatchObject({ code: "relation_invalid" });
  });

  it("follows only outgoing or incoming edges when asked", async () => {
    const { fn, ref } = port(company, names);
    expect((await traverse(ref(2), fn, { direction: "out" })).nodes.map((n) => n.name)).toEqual(["Ledger", "Cluster", "Frankfurt"]);
    expect((await traverse(ref(2), fn, { direction: "in" })).nodes.map((n) => n.name)).toEqual(["Ledger", "Priya", "Night Owls"]);
  });

  it("explains each visited node with its hop chain in stored edge direction", async () => {
    const { fn, ref } = port(company, names);
    const r = await traverse(ref(1), fn, { maxDepth: 3, explain: true });
    const sre = r.paths!.find((p) => p.node.name === "SRE")!;
    expect(sre.hops).toEqual([
      { from: { id: 1, name: "Priya" }, relation: "created", to: { id: 2, name: "Ledger" } },
      { from: { id: 3, name: "Night Owls" }, relation: "on_call_for", to: { id: 2, name: "Ledger" } },
      { from: { id: 3, name: "Night Owls" }, relation: "part_of", to: { id: 4, name: "SRE" } },
    ]);
    expect(r.paths).toHaveLength(r.nodes.length - 1);
    expect((await traverse(ref(1), fn)).paths).toBeUndefined();
  });

  it("stops at 256 visited nodes and says so", async () => {
    const star: [number, string, number][] = Array.from({ length: 400 }, (_, i) => [0, "has", i + 1]);
    const { fn, ref } = port(star);
    const r = await traverse(ref(0), fn, { maxDepth: 1, maxVisited: 1000 });
    expect(r.nodes).toHaveLength(256);
    expect(r.truncated).toBe(true);
    expect(r.edges).toHaveLength(255);
    const small = await traverse(ref(0), fn, { maxVisited: 10 });
    expect(small.nodes).toHaveLength(10);
  });

  it("accepts a synchronous port and is deterministic", async () => {
    const { ref } = port(company, names);
    const edges: TraverseEdge[] = company.map(([f, type, t], i) => ({ id: i + 1, from: ref(f), to: ref(t), type }));
    const sync = (n: NodeRef) => edges.filter((e) => e.from.id === n.id || e.to.id === n.id);
    const a = await traverse(ref(2), sync, { maxDepth: 3, explain: true });
    const b = await traverse(ref(2), (n) => sync(n).reverse(), { maxDepth: 3, explain: true });
    expect(b).toEqual(a);
  });
});
