/**
 * Benchmark of the graph leg's Personalized PageRank (SPEC §1 Retrieval
 * pipeline step 6). Builds a seeded random graph (default 20,000 entities,
 * 100,000 edges, skewed degrees plus taxonomy hubs), then times queries of
 * 1–3 seed entities with the push solver (the default) and the power
 * solver (the reference), printing p50/p95 and how closely push matches
 * power on the top 10 (per query: fastest of 3 runs). Run: `npx tsx scripts/bench-ppr.ts [--nodes N]
 * [--edges M] [--queries Q] [--seed S] [--eps E]`.
 */
import { performance } from "node:perf_hooks";
import { buildGraph, type GraphEdge, personalizedPageRank, topScores } from "../src/graph/ppr.ts";

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** mulberry32: a tiny seeded PRNG, so every run builds the same graph. */
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

const NODES = arg("nodes", 20_000);
const EDGES = arg("edges", 100_000);
const QUERIES = arg("queries", 500);
const EPS = arg("eps", 1e-5);
const rand = rng(arg("seed", 42));

// 90% semantic edges with skewed endpoints (squared uniform → a few popular
// entities), 10% taxonomy edges into 50 tag entities (mega-hubs).
const SEMANTIC = ["works_at", "depends_on", "part_of", "uses", "owns", "created"];
const TAGS = 50;
const edges: GraphEdge[] = [];
for (let i = 0; i < EDGES; i++) {
  if (rand() < 0.1) {
    edges.push({ from: TAGS + Math.floor(rand() * (NODES - TAGS)), to: Math.floor(rand() * TAGS), type: "tagged_with" });
  } else {
    const a = TAGS + Math.floor(rand() ** 2 * (NODES - TAGS));
    const b = TAGS + Math.floor(rand() * (NODES - TAGS));
    edges.push({ from: a, to: b, type: SEMANTIC[Math.floor(rand() * SEMANTIC.length)] });
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
};
const fmt = (ms: number) => ms.toFixed(3);

const t0 = performance.now();
const graph = buildGraph(edges);
const buildMs = performance.now() - t0;
let hubs = 0;
for (let u = 0; u < graph.n; u++) if (graph.damp[u] < 1) hubs++;

const queries: Map<number, number>[] = [];
for (let q = 0; q < QUERIES; q++) {
  const m = new Map<number, number>();
  const k = 1 + Math.floor(rand() * 3);
  while (m.size < k) m.set(TAGS + Math.floor(rand() * (NODES - TAGS)), 1);
  queries.push(m);
}

// Each query runs REPEATS times and keeps its fastest time, so other load on the machine inflates the figures less.
const REPEATS = 3;
function timeRuns(method: "push" | "power", count: number): { times: number[]; results: Map<number, number>[] } {
  for (let i = 0; i < Math.min(20, count); i++) personalizedPageRank(graph, queries[i], { method, epsilon: EPS }); // warm-up
  const times: number[] = [];
  const results: Map<number, number>[] = [];
  for (let i = 0; i < count; i++) {
    let best = Infinity;
    for (let rep = 0; rep < REPEATS; rep++) {
      const s = performance.now();
      const res = personalizedPageRank(graph, queries[i], { method, epsilon: EPS });
      best = Math.min(best, performance.now() - s);
      if (rep === 0) results.push(res);
    }
    times.push(best);
  }
  return { times, results };
}

const push = timeRuns("push", QUERIES);
const powerCount = Math.min(QUERIES, 100);
const power = timeRuns("power", powerCount);

// Agreement of push with the power reference: overlap of the non-seed top 10.
let overlap = 0;
for (let i = 0; i < powerCount; i++) {
  const seeds = new Set(queries[i].keys());
  const a = new Set(topScores(push.results[i], 10, seeds).map((h) => h.id));
  const b = topScores(power.results[i], 10, seeds);
  overlap += b.filter((h) => a.has(h.id)).length / Math.max(1, b.length);
}
const touched = push.results.reduce((s, r) => s + r.size, 0) / push.results.length;

console.log(`graph: ${graph.n} nodes, ${edges.length} edges, ${graph.targets.length} adjacency entries, hub threshold ${graph.hubThreshold} (${hubs} hubs), build ${buildMs.toFixed(1)} ms`);
console.log("");
console.log("| solver | queries | p50 ms | p95 ms | max ms | nodes scored (mean) |");
console.log("|---|---|---|---|---|---|");
console.log(`| push (eps ${EPS}) | ${QUERIES} | ${fmt(pct(push.times, 0.5))} | ${fmt(pct(push.times, 0.95))} | ${fmt(Math.max(...push.times))} | ${touched.toFixed(0)} |`);
console.log(`| power (≤30 rounds) | ${powerCount} | ${fmt(pct(power.times, 0.5))} | ${fmt(pct(power.times, 0.95))} | ${fmt(Math.max(...power.times))} | ${(power.results.reduce((s, r) => s + r.size, 0) / powerCount).toFixed(0)} |`);
console.log("");
console.log(`push vs power, non-seed top-10 overlap: ${(overlap / powerCount).toFixed(3)}`);
