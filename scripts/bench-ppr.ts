/**
 * Benchmark of the graph leg's Personalized PageRank (SPEC §1 Retrieval
 * pipeline step 6). Builds a seeded random graph (default 20,000 entities,
 * 100,000 edges, skewed degrees plus taxonomy hubs), then times queries of
 * 1–3 seed entities with the push solver (the default) and the power
 * solver (the reference), printing p50/p95 and how closely push matches
 * power on the top 10 (per query: fastest of 3 runs). A second table runs
 * the multi-hop questions of `fixtures/graph-eval/` and prints recall@5 of a
 * plain BM25 ranking, of the graph leg alone (a note scores its title
 * entity's PPR; plain, and query-aware with relation cues and degree
 * normalisation) and of BM25 and graph fused by RRF (k = 60). Run: `npx tsx scripts/bench-ppr.ts [--nodes N]
 * [--edges M] [--queries Q] [--seed S] [--eps E]`.
 */
import { performance } from "node:perf_hooks";
import { contentWords, loadVault } from "../fixtures/graph-eval/load-vault.ts";
import { buildGraph, type GraphEdge, normalizeByDegree, personalizedPageRank, topScores } from "../src/graph/ppr.ts";
import { matchEntityNames, relationCues } from "../src/graph/seeds.ts";

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
const EPS = arg("eps", 3e-5);
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

// Each query runs REPEATS times and keeps its fastest time, so other load on the machine inflates the
// figures less. CPU time (process.cpuUsage, µs resolution) is kept too: on a shared box it is the steadier figure.
const REPEATS = 3;
const BOOST = new Map([["depends_on", 5], ["created", 5]]);
interface Runs { times: number[]; cpu: number[]; results: Map<number, number>[] }
function timeRuns(method: "push" | "power", count: number, typeBoost?: Map<string, number>): Runs {
  for (let i = 0; i < Math.min(20, count); i++) personalizedPageRank(graph, queries[i], { method, epsilon: EPS, typeBoost }); // warm-up
  const out: Runs = { times: [], cpu: [], results: [] };
  for (let i = 0; i < count; i++) {
    let best = Infinity, bestCpu = Infinity;
    for (let rep = 0; rep < REPEATS; rep++) {
      const c = process.cpuUsage();
      const s = performance.now();
      const res = personalizedPageRank(graph, queries[i], { method, epsilon: EPS, typeBoost });
      best = Math.min(best, performance.now() - s);
      const d = process.cpuUsage(c);
      bestCpu = Math.min(bestCpu, (d.user + d.system) / 1000);
      if (rep === 0) out.results.push(res);
    }
    out.times.push(best);
    out.cpu.push(bestCpu);
  }
  return out;
}
const row = (label: string, r: Runs) =>
  `| ${label} | ${r.times.length} | ${fmt(pct(r.times, 0.5))} | ${fmt(pct(r.times, 0.95))} | ${fmt(pct(r.cpu, 0.5))} | ${fmt(pct(r.cpu, 0.95))} | ${(r.results.reduce((s, m) => s + m.size, 0) / r.results.length).toFixed(0)} |`;

const push = timeRuns("push", QUERIES);
const pushBoost = timeRuns("push", QUERIES, BOOST);
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
console.log("| solver | queries | p50 ms | p95 ms | p50 CPU ms | p95 CPU ms | nodes scored (mean) |");
console.log("|---|---|---|---|---|---|---|");
console.log(row(`push (eps ${EPS})`, push));
console.log(row("push + typeBoost (2 types x5)", pushBoost));
console.log(row("power (≤30 rounds)", power));
console.log("");
console.log(`push vs power, non-seed top-10 overlap: ${(overlap / powerCount).toFixed(3)}`);

// ---- Fixture: does the graph leg reach answers that share no words with the question? ----
const vault = loadVault();
const vg = buildGraph(vault.edges);
const docs = vault.notes.map((n) => [...contentWords(`${n.file} ${n.raw}`)]);
const df = new Map<string, number>();
for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
const avgLen = docs.reduce((a, d) => a + d.length, 0) / docs.length;

function bm25(q: string): number[] {
  const terms = [...contentWords(q)];
  return docs.map((d) => {
    let s = 0;
    for (const t of terms) {
      const tf = d.filter((w) => w === t).length;
      if (tf === 0) continue;
      const idf = Math.log(1 + (docs.length - df.get(t)! + 0.5) / (df.get(t)! + 0.5));
      s += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avgLen));
    }
    return s;
  });
}
const ranked = (scores: number[]) => scores.map((s, i) => ({ i, s })).filter((x) => x.s > 0).sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.i);
const rrf = (lists: number[][]) => {
  const f = new Map<number, number>();
  for (const l of lists) l.forEach((doc, r) => f.set(doc, (f.get(doc) ?? 0) + 1 / (60 + r + 1)));
  return [...f].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([doc]) => doc);
};
const recall = (list: number[], answers: string[]) => {
  const top = new Set(list.slice(0, 5).map((i) => vault.notes[i].file));
  return answers.filter((a) => top.has(a)).length / answers.length;
};
type Row = "bm25" | "graphPlain" | "graphAware" | "fusedPlain" | "fusedAware";
const sums: Record<Row, number> = { bm25: 0, graphPlain: 0, graphAware: 0, fusedPlain: 0, fusedAware: 0 };
for (const q of vault.questions) {
  const seeds = new Map(matchEntityNames(q.question, (n) => vault.entityId.has(n)).map((n) => [vault.entityId.get(n)!, 1]));
  // The graph leg ranks notes by their title entity and leaves out the seeds' own notes (lexical search finds those).
  const graphList = (scores: Map<number, number>) =>
    ranked(vault.notes.map((n) => {
      const id = vault.entityId.get(n.entity)!;
      return seeds.has(id) ? 0 : scores.get(id) ?? 0;
    }));
  const plain = graphList(personalizedPageRank(vg, seeds));
  const boost = new Map(relationCues(q.question).map((t) => [t, 5]));
  const aware = graphList(normalizeByDegree(vg, personalizedPageRank(vg, seeds, { typeBoost: boost })));
  const lex = ranked(bm25(q.question));
  sums.bm25 += recall(lex, q.answers);
  sums.graphPlain += recall(plain, q.answers);
  sums.graphAware += recall(aware, q.answers);
  sums.fusedPlain += recall(rrf([lex, plain]), q.answers);
  sums.fusedAware += recall(rrf([lex, aware]), q.answers);
}
const nq = vault.questions.length;
const r = (k: Row) => (sums[k] / nq).toFixed(3);
console.log("");
console.log(`fixture: ${vault.notes.length} notes, ${vault.edges.length} edges, ${nq} multi-hop questions (answers share no content word with the question)`);
console.log("");
console.log("| ranking | recall@5 |");
console.log("|---|---|");
console.log(`| BM25 only | ${r("bm25")} |`);
console.log(`| graph leg only: PPR | ${r("graphPlain")} |`);
console.log(`| graph leg only: PPR + relation cues (x5) + degree normalisation | ${r("graphAware")} |`);
console.log(`| BM25 + PPR, RRF k=60 | ${r("fusedPlain")} |`);
console.log(`| BM25 + query-aware PPR, RRF k=60 | ${r("fusedAware")} |`);
