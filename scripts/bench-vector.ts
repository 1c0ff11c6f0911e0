/**
 * Latency of the exact-scan MatrixIndex at the desktop envelope (SPEC §8:
 * 50,000 docs): 50k random unit vectors of 100 dimensions, 300 queries, top 10
 * (and top 50, and top 10 with a filter passing half the ids). Prints wall
 * p50/p95/max and mean CPU time per query (CPU time is the steadier figure on
 * a shared machine) as a table; no assertion.
 *
 *   npx tsx scripts/bench-vector.ts [--n 50000] [--dim 100] [--queries 300]
 */

import { parseArgs } from "node:util";
import { MatrixIndex } from "../src/vector/matrix-index.ts";

const { values: flags } = parseArgs({
  options: { n: { type: "string", default: "50000" }, dim: { type: "string", default: "100" }, queries: { type: "string", default: "300" } },
});
const n = Number(flags.n);
const dim = Number(flags.dim);
const queries = Number(flags.queries);

let seed = 12345;
const rand = (): number => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const randomUnit = (): Float32Array => {
  const v = Float32Array.from({ length: dim }, () => rand() * 2 - 1);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
};

const index = new MatrixIndex(dim);
const t0 = performance.now();
for (let id = 1; id <= n; id++) index.add(id, randomUnit());
const buildMs = performance.now() - t0;
const qs = Array.from({ length: queries }, randomUnit);

function measure(label: string, k: number, filter?: (id: number) => boolean): string {
  for (const q of qs.slice(0, 20)) index.search(q, k, filter); // warm-up
  const c0 = process.cpuUsage();
  const ms = qs.map((q) => {
    const s = performance.now();
    index.search(q, k, filter);
    return performance.now() - s;
  }).sort((a, b) => a - b);
  const cpu = process.cpuUsage(c0).user / 1000 / qs.length;
  const p = (x: number): string => ms[Math.min(ms.length - 1, Math.floor(x * ms.length))].toFixed(2);
  return `| ${label.padEnd(26)} | ${p(0.5).padStart(7)} | ${p(0.95).padStart(7)} | ${ms[ms.length - 1].toFixed(2).padStart(7)} | ${cpu.toFixed(2).padStart(11)} |`;
}

console.log(`MatrixIndex: ${n} × ${dim}-d float32 (${((n * dim * 4) / 1048576).toFixed(1)} MiB), built in ${buildMs.toFixed(0)} ms, ${queries} queries`);
console.log("| case                       | p50 ms  | p95 ms  | max ms  | cpu ms mean |");
console.log("|----------------------------|---------|---------|---------|-------------|");
console.log(measure("top 10", 10));
console.log(measure("top 50", 50));
console.log(measure("top 10, filter keeps 1/2", 10, (id) => (id & 1) === 0));
