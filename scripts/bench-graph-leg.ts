/**
 * Benchmark of the whole graph leg of recall (SPEC §1 Retrieval pipeline
 * step 6) at the desktop envelope: 50,000 chunks, 20,000 entities and
 * 100,000 edges (skewed degrees, 10% taxonomy edges into 50 tag hubs), each
 * chunk linked to one subject entity and two mentioned ones. Rows are
 * written through the store functions into a real libSQL file; then it
 * prints the cold load of the in-memory graph (`GraphModel.load`: rows +
 * CSR build), the cost of applying one write's delta and rebuilding, and
 * the per-query leg time (name matching in the query, seeds from the query
 * and the top hits, relation cues, push PPR, entity → chunk mapping, hop
 * chains) as p50/p95/max over the queries, in wall time and in process
 * CPU time (steadier on a shared machine). Compare p95 with the 20 ms
 * recall target. Run: `node --expose-gc --import tsx scripts/bench-graph-leg.ts
 * [--chunks N] [--entities N] [--edges N] [--queries N] [--seed S]`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createGraphLeg, DEFAULT_GRAPH_LEG_PARAMS, runGraphLeg } from "../src/graph/graph-leg.ts";
import { emptyDelta } from "../src/graph/graph-delta.ts";
import { GraphModel } from "../src/graph/graph-model.ts";
import { openStore } from "../src/store/open-store.ts";
import { insertEdge, linkEntityChunks, upsertEntity } from "../src/store/graph-rows.ts";

const arg = (name: string, def: number) => (process.argv.includes(`--${name}`) ? Number(process.argv[process.argv.indexOf(`--${name}`) + 1]) : def);
const CHUNKS = arg("chunks", 50_000);
const ENTITIES = arg("entities", 20_000);
const EDGES = arg("edges", 100_000);
const QUERIES = arg("queries", 300);

/** mulberry32: a tiny seeded PRNG, so every run writes the same graph. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = rng(arg("seed", 7));
const pick = (n: number) => Math.floor(rand() * n);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(p * xs.length) - 1)];
const WORDS = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris", "juniper", "kestrel", "lumen", "maple", "nimbus", "onyx", "pylon"];
const nameOf = (i: number) => `${WORDS[i % 16]} ${WORDS[Math.floor(i / 16) % 16]} ${i}`;
const SEMANTIC = ["works_at", "depends_on", "part_of", "uses", "owns", "created", "maintains", "runs_on"];
const TAGS = 50;

const dir = mkdtempSync(join(tmpdir(), "cairn-bench-graph-"));
const db = await openStore({ path: join(dir, "bench.db") });
try {
  let t = performance.now();
  const now = new Date(0).toISOString();
  const ids: number[] = [];
  await db.write(async (tx) => {
    for (let i = 0; i < ENTITIES; i++) {
      const name = i < TAGS ? `tag ${i}` : nameOf(i);
      ids.push(await upsertEntity(tx, { domain: "global", name, displayName: name }, now));
    }
    for (let i = 0; i < EDGES; i++) {
      const taxonomy = rand() < 0.1;
      const from = taxonomy ? TAGS + pick(ENTITIES - TAGS) : TAGS + Math.floor(rand() ** 2 * (ENTITIES - TAGS));
      const to = taxonomy ? pick(TAGS) : TAGS + pick(ENTITIES - TAGS);
      await insertEdge(tx, { domain: "global", fromId: ids[from], toId: ids[to], type: taxonomy ? "tagged_with" : SEMANTIC[pick(SEMANTIC.length)], createdAt: now, edgeSource: "structured", chunkId: 1 + pick(CHUNKS) });
    }
    for (let c = 1; c <= CHUNKS; c++) {
      const subject = ids[TAGS + ((c - 1) % (ENTITIES - TAGS))];
      await linkEntityChunks(tx, [
        { entityId: subject, chunkId: c, subject: true },
        { entityId: ids[TAGS + pick(ENTITIES - TAGS)], chunkId: c, subject: false },
        { entityId: ids[TAGS + pick(ENTITIES - TAGS)], chunkId: c, subject: false },
      ]);
    }
  });
  console.log(`wrote ${ENTITIES} entities, ${EDGES} edges, ${CHUNKS * 3} entity–chunk links in ${((performance.now() - t) / 1000).toFixed(1)} s`);

  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  t = performance.now();
  const loadCpu0 = process.cpuUsage();
  const model = await GraphModel.load(db);
  const loadMs = performance.now() - t;
  const loadCpu = process.cpuUsage(loadCpu0);
  const loadCpuMs = (loadCpu.user + loadCpu.system) / 1000;
  const rssMb = (process.memoryUsage().rss - rss0) / 2 ** 20;
  gc?.();
  const heapMb = gc ? `, retained heap +${((process.memoryUsage().heapUsed - heap0) / 2 ** 20).toFixed(0)} MiB` : " (run with node --expose-gc for the retained heap)";
  const size = model.size();
  t = performance.now();
  model.rebuild();
  const rebuildMs = performance.now() - t;

  const queries: { query: string; seedChunkIds: number[] }[] = [];
  const cues = ["who maintains", "what depends on", "where does it run on", "who created", "what uses"];
  for (let q = 0; q < QUERIES; q++) {
    const a = TAGS + pick(ENTITIES - TAGS);
    const named = rand() < 0.5 ? `${nameOf(a)} and ${nameOf(TAGS + pick(ENTITIES - TAGS))}` : nameOf(a);
    queries.push({ query: `${cues[q % cues.length]} ${named} in production`, seedChunkIds: Array.from({ length: 10 }, () => 1 + pick(CHUNKS)) });
  }
  const filter = (id: number) => id % 97 !== 0; // a filter that does some work, like the engine's label check
  const times: number[] = [];
  const cpu: number[] = [];
  let hits = 0, hopped = 0;
  for (let i = 0; i < Math.min(20, QUERIES); i++) runGraphLeg(model, { ...queries[i], filter, limit: 100 }); // warm-up
  for (const q of queries) {
    const s = performance.now();
    const c0 = process.cpuUsage();
    const r = runGraphLeg(model, { ...q, filter, limit: 100 });
    const c1 = process.cpuUsage(c0);
    times.push(performance.now() - s);
    cpu.push((c1.user + c1.system) / 1000);
    hits += r.ids.length;
    hopped += r.hops.size;
  }
  // The seam the engine calls adds only the domain-drop check.
  const leg = createGraphLeg(model, db);
  const seamTimes: number[] = [];
  for (const q of queries.slice(0, 100)) {
    const s = performance.now();
    await leg({ ...q, filter, limit: 100 });
    seamTimes.push(performance.now() - s);
  }
  // One write: apply a small delta (5 new edges) and rebuild the CSR it invalidates.
  const d = emptyDelta();
  for (let i = 0; i < 5; i++) d.inserted.push({ id: 10_000_000 + i, domain: "global", fromId: ids[TAGS + i], toId: ids[TAGS + 100 + i], type: "uses", createdAt: now, edgeSource: "structured" });
  t = performance.now();
  model.apply(d);
  const applyMs = performance.now() - t;
  t = performance.now();
  model.rebuild();
  const rebuild2Ms = performance.now() - t;

  console.log(`\nmodel: ${size.entities} entities, ${size.currentEdges} current edges, ${size.linkedChunks} linked chunks; params ${JSON.stringify(DEFAULT_GRAPH_LEG_PARAMS)}\n`);
  console.log("| step | figure |\n|---|---|");
  console.log(`| cold load (rows + CSR) | ${loadMs.toFixed(0)} ms wall, ${loadCpuMs.toFixed(0)} ms CPU, RSS +${rssMb.toFixed(0)} MiB${heapMb} |`);
  console.log(`| CSR rebuild (warm) | ${rebuildMs.toFixed(0)} ms; after a 5-edge write ${rebuild2Ms.toFixed(0)} ms (apply ${applyMs.toFixed(3)} ms) |`);
  console.log(`| graph leg per query (${QUERIES}), wall | p50 ${pct(times, 0.5).toFixed(2)} ms, p95 ${pct(times, 0.95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms |`);
  console.log(`| graph leg per query (${QUERIES}), CPU time | p50 ${pct(cpu, 0.5).toFixed(2)} ms, p95 ${pct(cpu, 0.95).toFixed(2)} ms, max ${Math.max(...cpu).toFixed(2)} ms |`);
  console.log(`| through the engine seam (100) | p50 ${pct(seamTimes, 0.5).toFixed(2)} ms, p95 ${pct(seamTimes, 0.95).toFixed(2)} ms |`);
  console.log(`| mean graph hits / with hops | ${(hits / QUERIES).toFixed(1)} / ${(hopped / QUERIES).toFixed(1)} |`);
} finally {
  db.close();
  rmSync(dir, { recursive: true, force: true });
}
