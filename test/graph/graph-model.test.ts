/**
 * The in-memory recall graph (SPEC §1 step 6): loading from the store page
 * by page gives the same graph that writes built incrementally; a delta is
 * applied only for the committed chunk it was staged for; deletes drop
 * links; stale CSRs are rebuilt now on small graphs and deferred on large ones.
 */
import { afterEach, describe, expect, it } from "vitest";
import { emptyDelta } from "../../src/graph/graph-delta.ts";
import { GraphModel } from "../../src/graph/graph-model.ts";
import type { Chunk } from "../../src/core/types.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => { await t?.close(); t = undefined; });

function snapshot(m: GraphModel, names: string[]) {
  return names.map((n) => m.named(n).map((id) => ({
    id, chunks: [...m.chunksOf(id)].sort((a, b) => a[0] - b[0]), edges: m.edgesAt(id).map((e) => `${e.from}-${e.type}-${e.to}`).sort(),
  })));
}

describe("GraphModel", () => {
  it("loads from the store, page by page, the graph that writes built", async () => {
    t = await openTestMemory();
    await t.req("POST", "/ingest/markdown", { title: "Ledger", content: "---\ntags: [service]\n---\n# Ledger\n\nLedger depends on Granite. Night Owls is on call for Ledger.\n" });
    await t.req("POST", "/ingest/markdown", { title: "Granite", content: "Granite is maintained by Dev Patel. Granite replicates to Dublin.\n" });
    await t.req("POST", "/ingest", { title: "x", content: "Dublin office notes", entities: [{ name: "Dublin" }], relations: [{ from: "Dublin", to: "Granite", type: "hosts", valid_at: "2024-01-01" }] });
    await t.req("POST", "/ingest", { title: "y", content: "Dublin office notes, revised", relations: [{ from: "Dublin", to: "Granite", type: "hosts", valid_at: "2024-02-01" }] });
    const names = ["ledger", "granite", "night owls", "dev patel", "dublin", "service"];
    const loaded = await GraphModel.load(t.memory.db, { pageSize: 2 });
    expect(loaded.size()).toEqual(t.memory.graph.model.size());
    expect(snapshot(loaded, names)).toEqual(snapshot(t.memory.graph.model, names));
    expect(loaded.size().edges).toBe(loaded.size().currentEdges + 1); // one retired version, kept
  });

  it("applies a staged delta only when its chunk commits with the same content hash", () => {
    const m = new GraphModel();
    const delta = emptyDelta();
    delta.entities.push({ id: 1, domain: "global", name: "a", displayName: "A" }, { id: 2, domain: "global", name: "b", displayName: "B" });
    delta.inserted.push({ id: 9, domain: "global", fromId: 1, toId: 2, type: "uses", createdAt: "2025-01-01T00:00:00.000Z", edgeSource: "structured" });
    delta.links.push({ entityId: 1, chunkId: 5, subject: true });
    const chunk = (contentHash: string) => ({ id: 5, contentHash }) as Chunk;
    m.stage({ chunkId: 5, contentHash: "h1" }, delta);
    m.added(chunk("other")); // the id was reused after a rollback: not ours
    expect(m.named("a")).toEqual([]);
    m.stage({ chunkId: 5, contentHash: "h1" }, delta);
    m.added(chunk("h1"));
    expect(m.named("a")).toEqual([1]);
    expect(m.edgesAt(2).map((e) => e.id)).toEqual([9]);
    m.removed(5);
    expect(m.chunksOf(1).size).toBe(0);
    expect(m.linkWeight(1, 1, 0.25)).toBe(0);
  });

  it("rebuilds a stale CSR inside the query when small, and defers it when large", () => {
    const deferred: (() => void)[] = [];
    const m = new GraphModel({ syncRebuildEdges: 1, schedule: (fn) => void deferred.push(fn) });
    const edge = (id: number, from: number, to: number) => {
      const d = emptyDelta();
      d.inserted.push({ id, domain: "global", fromId: from, toId: to, type: "uses", createdAt: "2025-01-01T00:00:00.000Z", edgeSource: "structured" });
      m.apply(d);
    };
    edge(1, 1, 2);
    expect(m.graph().n).toBe(2); // first build, and 1 edge ≤ the sync limit
    edge(2, 2, 3);
    expect(m.graph().n).toBe(2); // 2 edges > 1: the stale graph serves, a rebuild is scheduled once
    expect(m.graph().n).toBe(2);
    expect(deferred).toHaveLength(1);
    deferred[0]();
    expect(m.graph().n).toBe(3);
    // A past view builds from the versions in force then.
    expect(m.graph(Date.parse("2024-12-31T00:00:00Z")).n).toBe(0);
  });
});
