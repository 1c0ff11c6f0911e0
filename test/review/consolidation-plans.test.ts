/**
 * The consolidation plan (SPEC §4.4 `POST /consolidate/propose`) and the temporal view recall gets (SPEC §3 supersede
 * row, §2.2 `conflict`/`decayed`) at their edges: which pairs are proposed, in which direction and order, with which
 * basis; when a link counts as proposed, approved or closed at a time; which neighbours put a hit in conflict.
 * The planner and the filter are pure functions of their documented inputs, so the edge cases are given as data.
 * Issue 27: these kill the mutants of `src/review/` that no test reached.
 */
import { describe, expect, it } from "vitest";
import { planConsolidation, windowsOverlap, type PlanChunk } from "../../src/review/plan-consolidation.ts";
import { cosine, MAX_CANDIDATE_DF, MIN_TERMS, nearDuplicatePairs, NEAR_DUPLICATE_SIMILARITY, termVector } from "../../src/review/similarity.ts";
import { linkStateAt, temporalFilter, type TemporalSource } from "../../src/review/recall-filter.ts";
import type { ChunkTimes, EdgeConflict, LinkTimes } from "../../src/store/consolidation.ts";

const T0 = "2025-01-01T00:00:00.000Z";
const at = (h: number) => new Date(Date.parse(T0) + h * 3_600_000).toISOString();
const ms = (h: number) => Date.parse(at(h));

function conflict(a: Partial<EdgeConflict["a"]> & { chunkId: number }, b: Partial<EdgeConflict["b"]> & { chunkId: number }, extra: Partial<EdgeConflict> = {}): EdgeConflict {
  return { domain: "global", subject: "alice", relation: "works_at", a: { object: "acme", ...a }, b: { object: "globex", ...b }, ...extra };
}

const plan = (o: { conflicts?: EdgeConflict[]; chunks?: PlanChunk[]; created?: Record<number, string>; threshold?: number }) =>
  planConsolidation({ conflicts: o.conflicts ?? [], chunks: o.chunks ?? [], created: new Map(Object.entries(o.created ?? {}).map(([k, v]) => [Number(k), v])), threshold: o.threshold ?? NEAR_DUPLICATE_SIMILARITY });

describe("valid windows (a graph conflict needs overlapping windows)", () => {
  it("treats half-open windows that only touch as disjoint, open bounds as unbounded, and unparsable bounds as open", () => {
    expect(windowsOverlap({ validAt: at(0), invalidAt: at(10) }, { validAt: at(10), invalidAt: at(20) })).toBe(false);
    expect(windowsOverlap({ validAt: at(10), invalidAt: at(20) }, { validAt: at(0), invalidAt: at(10) })).toBe(false);
    expect(windowsOverlap({ validAt: at(0), invalidAt: at(11) }, { validAt: at(10), invalidAt: at(20) })).toBe(true);
    expect(windowsOverlap({ validAt: at(9) }, { validAt: at(0), invalidAt: at(10) })).toBe(true);
    expect(windowsOverlap({ invalidAt: at(1) }, { validAt: at(0) })).toBe(true);
    expect(windowsOverlap({ invalidAt: at(1) }, { validAt: at(1) })).toBe(false);
    expect(windowsOverlap({}, {})).toBe(true);
    expect(windowsOverlap({ validAt: "not a date", invalidAt: at(1) }, { validAt: at(0), invalidAt: "never" })).toBe(true);
  });
});

describe("planConsolidation: contradicts", () => {
  it("points newer → older by created_at, records each side's object, and skips one chunk conflicting with itself", () => {
    const links = plan({
      conflicts: [conflict({ chunkId: 5 }, { chunkId: 7 }), conflict({ chunkId: 9 }, { chunkId: 9, object: "initech" })],
      created: { 5: at(2), 7: at(1), 9: at(3) },
    });
    expect(links).toEqual([{
      kind: "contradicts", from: 5, to: 7,
      basis: { rule: "graph_conflict", domain: "global", subject: "alice", relation: "works_at", values: { 5: "acme", 7: "globex" } },
    }]);
  });

  it("breaks a created_at tie by the higher id, and treats a missing or unparsable created_at as the oldest", () => {
    expect(plan({ conflicts: [conflict({ chunkId: 3 }, { chunkId: 4 })], created: { 3: at(1), 4: at(1) } })[0]).toMatchObject({ from: 4, to: 3, basis: { values: { 4: "globex", 3: "acme" } } });
    expect(plan({ conflicts: [conflict({ chunkId: 4 }, { chunkId: 3 })], created: { 3: at(1), 4: at(1) } })[0]).toMatchObject({ from: 4, to: 3, basis: { values: { 4: "acme", 3: "globex" } } });
    expect(plan({ conflicts: [conflict({ chunkId: 8 }, { chunkId: 2 })], created: { 2: at(1) } })[0]).toMatchObject({ from: 2, to: 8 });
    expect(plan({ conflicts: [conflict({ chunkId: 8 }, { chunkId: 2 })], created: { 2: at(1), 8: "garbage" } })[0]).toMatchObject({ from: 2, to: 8 });
  });

  it("proposes one link per chunk pair however many edges conflict, keeping the first basis, and none for disjoint windows", () => {
    const links = plan({
      conflicts: [
        conflict({ chunkId: 1 }, { chunkId: 2 }),
        conflict({ chunkId: 1, object: "x" }, { chunkId: 2, object: "y" }, { relation: "lives_in" }),
        conflict({ chunkId: 3, validAt: at(0), invalidAt: at(5) }, { chunkId: 4, validAt: at(5) }),
      ],
      created: { 1: at(1), 2: at(2), 3: at(1), 4: at(2) },
    });
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ from: 2, to: 1, basis: { relation: "works_at" } });
  });

  it("proposes a link for each distinct pair in conflict, sorted by target then source whatever order the edges came in", () => {
    const links = plan({
      conflicts: [conflict({ chunkId: 4 }, { chunkId: 2 }), conflict({ chunkId: 5 }, { chunkId: 1 }), conflict({ chunkId: 3 }, { chunkId: 1 })],
      created: { 1: at(1), 2: at(1), 3: at(2), 4: at(3), 5: at(3) },
    });
    expect(links.map((l) => [l.kind, l.from, l.to])).toEqual([["contradicts", 3, 1], ["contradicts", 5, 1], ["contradicts", 4, 2]]);
  });
});

describe("planConsolidation: supersedes for near-duplicates", () => {
  const runbook = "Restart the ingest worker with systemctl restart ingest-worker after rotating credentials";
  it("proposes newer → older within one domain only, with the similarity and threshold as basis", () => {
    const links = plan({
      chunks: [
        { id: 1, domain: "ops", createdAt: at(1), text: runbook },
        { id: 2, domain: "ops", createdAt: at(2), text: `${runbook} again` },
        { id: 3, domain: "hr", createdAt: at(3), text: runbook },
      ],
      created: { 1: at(1), 2: at(2), 3: at(3) },
    });
    expect(links).toEqual([{ kind: "supersedes", from: 2, to: 1, basis: { rule: "near_duplicate", domain: "ops", similarity: 1, threshold: 0.9 } }]);
  });

  it("sorts the plan by target, then source, then kind, across domains", () => {
    const chunks: PlanChunk[] = [
      { id: 10, domain: "zeta", createdAt: at(1), text: "zebra yak walrus vole" },
      { id: 11, domain: "zeta", createdAt: at(2), text: "zebra yak walrus vole" },
      { id: 2, domain: "alpha", createdAt: at(1), text: "apple banana cherry damson" },
      { id: 3, domain: "alpha", createdAt: at(2), text: "apple banana cherry damson" },
      { id: 4, domain: "alpha", createdAt: at(3), text: "apple banana cherry damson" },
    ];
    const created = { 10: at(1), 11: at(2), 2: at(1), 3: at(2), 4: at(3) };
    const links = plan({ chunks, created, conflicts: [conflict({ chunkId: 2 }, { chunkId: 3 })] });
    expect(links.map((l) => [l.kind, l.from, l.to])).toEqual([
      ["contradicts", 3, 2], ["supersedes", 3, 2], ["supersedes", 4, 2], ["supersedes", 4, 3], ["supersedes", 11, 10],
    ]);
    expect(links.find((l) => l.from === 11)!.basis.domain).toBe("zeta");
    // Same pairs when the chunks arrive in another order.
    expect(plan({ chunks: [...chunks].reverse(), created, conflicts: [conflict({ chunkId: 2 }, { chunkId: 3 })] })).toEqual(links);
  });
});

describe("the near-duplicate measure (cosine of analyzer term frequencies)", () => {
  it("is 1 for identical term bags, 0 for disjoint or empty ones, rounded to 4 places and symmetric", () => {
    const a = termVector("apple banana cherry");
    expect(cosine(a, termVector("cherry banana apple"))).toBe(1);
    expect(cosine(a, termVector("walrus yak zebra"))).toBe(0);
    expect(cosine(a, termVector(""))).toBe(0);
    expect(cosine(termVector(""), a)).toBe(0);
    // Two of three shared: 2 / (√3·√3) = 0.6667; with one term twice, (2·1 + 1) / (√6·√3) = 0.7071.
    const b = termVector("apple banana damson");
    expect(cosine(a, b)).toBe(0.6667);
    const c = termVector("apple apple banana damson");
    expect(cosine(a, c)).toBe(0.7071);
    expect(cosine(c, a)).toBe(0.7071);
    expect(cosine(termVector("apple banana cherry damson elder"), a)).toBe(0.7746);
  });

  it("pairs documents at or above the threshold, never below, and never ones with fewer than 3 distinct terms", () => {
    expect(MIN_TERMS).toBe(3);
    const docs = ["apple banana cherry", "cherry banana apple", "apple banana damson", "apple banana", "banana apple"].map(termVector);
    expect(nearDuplicatePairs(docs, 0.9)).toEqual([[0, 1, 1]]);
    expect(nearDuplicatePairs(docs, 0.6667)).toEqual([[0, 1, 1], [0, 2, 0.6667], [1, 2, 0.6667]]);
    expect(nearDuplicatePairs(docs, 0.6668)).toEqual([[0, 1, 1]]);
    // A short text before a longer one that contains it (2 / (√2·√3) = 0.8165) is still too short to pair.
    expect(nearDuplicatePairs(["apple banana", "apple banana cherry"].map(termVector), 0.8)).toEqual([]);
    expect(nearDuplicatePairs(["apple banana cherry", "apple banana"].map(termVector), 0.8)).toEqual([]);
  });

  it("ignores a term held by more than 256 documents when finding candidates, but still counts it in the similarity", () => {
    expect(MAX_CANDIDATE_DF).toBe(256);
    const common = Array.from({ length: MAX_CANDIDATE_DF }, (_, i) => termVector(`zebra yak walrus filler${i}x`));
    // With 256 holders of "zebra" the rare pair below is found through zebra; with 257 the only shared terms are too common.
    const pair = [termVector("zebra yak walrus"), termVector("zebra yak walrus")];
    expect(nearDuplicatePairs([...pair, ...common.slice(0, 254)], 1).filter(([i, j]) => i < 2 && j < 2)).toEqual([[0, 1, 1]]);
    expect(nearDuplicatePairs([...pair, ...common.slice(0, 255)], 1)).toEqual([]);
  });
});

describe("link state at a time", () => {
  const link = { createdAt: at(1), approvedAt: at(2), closedAt: at(3) };
  it("is absent before creation, proposed from creation, approved from approval, closed from closing (each bound inclusive)", () => {
    expect(linkStateAt(link, ms(1) - 1)).toBe("absent");
    expect(linkStateAt(link, ms(1))).toBe("proposed");
    expect(linkStateAt(link, ms(2) - 1)).toBe("proposed");
    expect(linkStateAt(link, ms(2))).toBe("approved");
    expect(linkStateAt(link, ms(3) - 1)).toBe("approved");
    expect(linkStateAt(link, ms(3))).toBe("closed");
    expect(linkStateAt({ createdAt: at(1), closedAt: at(2) }, ms(2))).toBe("closed");
    expect(linkStateAt({ createdAt: at(1), closedAt: at(2) }, ms(2) - 1)).toBe("proposed");
    expect(linkStateAt({ createdAt: at(1), approvedAt: at(2) }, ms(50))).toBe("approved");
  });
});

describe("temporalFilter over a given source", () => {
  const source = (links: LinkTimes[], times: Record<number, ChunkTimes>): TemporalSource => ({
    load: async () => ({ links, times: new Map(Object.entries(times).map(([k, v]) => [Number(k), v])) }),
  });
  const chunk = (h: number, o: Partial<ChunkTimes> = {}): ChunkTimes => ({ createdMs: ms(h), flagged: false, ...o });
  const opts = { includeDecayed: false, nowMs: ms(10) };
  const sets = (v: { drop: Set<number>; conflict: Set<number>; decayed: Set<number> }) => ({ drop: [...v.drop].sort(), conflict: [...v.conflict].sort(), decayed: [...v.decayed].sort() });

  it("drops a chunk superseded by an approved link only when the superseding chunk is stored", async () => {
    const l: LinkTimes = { kind: "supersedes", from: 2, to: 1, createdAt: at(1), approvedAt: at(2) };
    expect(sets(await temporalFilter(source([l], { 1: chunk(0), 2: chunk(1) }), [1, 2], opts))).toEqual({ drop: [1], conflict: [], decayed: [] });
    expect(sets(await temporalFilter(source([l], { 1: chunk(0) }), [1], opts))).toEqual({ drop: [], conflict: [], decayed: [] });
    // An approved contradicts link never drops, it marks conflict; a proposed supersedes link does neither.
    expect(sets(await temporalFilter(source([{ ...l, kind: "contradicts" }], { 1: chunk(0), 2: chunk(1) }), [1, 2], opts))).toEqual({ drop: [], conflict: [1, 2], decayed: [] });
    expect(sets(await temporalFilter(source([{ ...l, approvedAt: undefined }], { 1: chunk(0), 2: chunk(1) }), [1, 2], opts))).toEqual({ drop: [], conflict: [], decayed: [] });
  });

  it("leaves a candidate the source no longer holds (deleted since recall found it) neither dropped nor decayed", async () => {
    const l: LinkTimes = { kind: "contradicts", from: 2, to: 1, createdAt: at(1), approvedAt: at(1) };
    expect(sets(await temporalFilter(source([l], { 2: chunk(1) }), [1, 2], opts))).toEqual({ drop: [], conflict: [1], decayed: [] });
    expect(sets(await temporalFilter(source([], {}), [7], { ...opts, includeDecayed: true }))).toEqual({ drop: [], conflict: [], decayed: [] });
  });

  it("counts a chunk as decayed at its expiry instant, not before", async () => {
    const src = source([], { 1: chunk(0, { expiresMs: ms(10) }), 2: chunk(0, { expiresMs: ms(10) + 1 }) });
    expect(sets(await temporalFilter(src, [1, 2], opts))).toEqual({ drop: [1], conflict: [], decayed: [] });
    expect(sets(await temporalFilter(src, [1, 2], { ...opts, includeDecayed: true }))).toEqual({ drop: [], conflict: [], decayed: [1] });
    expect(sets(await temporalFilter(src, [1, 2], { ...opts, atMs: ms(5) }))).toEqual({ drop: [], conflict: [], decayed: [] });
  });

  it("marks conflict only for an approved link, never a proposed one (SPEC §2.2: conflicts are shown after review)", async () => {
    const proposed: LinkTimes = { kind: "contradicts", from: 2, to: 1, createdAt: at(1) };
    const approved: LinkTimes = { ...proposed, approvedAt: at(2) };
    const times = { 1: chunk(0), 2: chunk(1) };
    expect(sets(await temporalFilter(source([proposed], times), [1, 2], opts)).conflict).toEqual([]);
    expect(sets(await temporalFilter(source([approved], times), [1, 2], opts)).conflict).toEqual([1, 2]);
    // Before the approval instant the link was only proposed.
    expect(sets(await temporalFilter(source([approved], times), [1, 2], { ...opts, atMs: ms(1.5) })).conflict).toEqual([]);
    const unresolved: LinkTimes = { kind: "supersedes", from: 2, to: 1, createdAt: at(1) };
    expect(sets(await temporalFilter(source([unresolved], times), [1, 2], opts)).conflict).toEqual([]);
  });

  it("marks conflict only against a neighbour that is current: stored, created by then, unflagged, not superseded, not decayed", async () => {
    const l: LinkTimes = { kind: "contradicts", from: 2, to: 1, createdAt: at(1), approvedAt: at(1) };
    const conflictOf1 = async (two: ChunkTimes | undefined, o = opts, extra: LinkTimes[] = [], more: Record<number, ChunkTimes> = {}) =>
      sets(await temporalFilter(source([l, ...extra], { ...more, 1: chunk(0), ...(two === undefined ? {} : { 2: two }) } as Record<number, ChunkTimes>), [1], o)).conflict;
    expect(await conflictOf1(chunk(1))).toEqual([1]);
    expect(await conflictOf1(undefined)).toEqual([]);
    expect(await conflictOf1(chunk(1, { flagged: true }))).toEqual([]);
    expect(await conflictOf1(chunk(10))).toEqual([1]);
    expect(await conflictOf1(chunk(10, { createdMs: ms(10) + 1 }))).toEqual([]);
    expect(await conflictOf1(chunk(1, { expiresMs: ms(10) }))).toEqual([]);
    const over2: LinkTimes = { kind: "supersedes", from: 3, to: 2, createdAt: at(1), approvedAt: at(1) };
    expect(await conflictOf1(chunk(1), opts, [over2], { 3: chunk(1) })).toEqual([]);
    // Only asked ids are marked, and not once they are dropped.
    expect(sets(await temporalFilter(source([l], { 1: chunk(0), 2: chunk(1) }), [2], opts)).conflict).toEqual([2]);
  });

  it("sees a link only while it is open at the asked time: not before creation, not after it was closed", async () => {
    const l: LinkTimes = { kind: "contradicts", from: 2, to: 1, createdAt: at(3), approvedAt: at(3), closedAt: at(6) };
    const src = source([l], { 1: chunk(0), 2: chunk(0) });
    const c = async (h: number) => sets(await temporalFilter(src, [1, 2], { ...opts, atMs: ms(h) })).conflict;
    expect(await c(2)).toEqual([]);
    expect(await c(4)).toEqual([1, 2]);
    expect(await c(7)).toEqual([]);
    expect(sets(await temporalFilter(src, [1, 2], opts)).conflict).toEqual([]);
  });
});
