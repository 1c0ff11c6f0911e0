/**
 * Personalized PageRank, the graph leg of recall (SPEC §1 Retrieval
 * pipeline step 6). The walk starts at the seed entities (those the query
 * names); at each step it restarts at the seeds with probability `alpha`,
 * and at a mega-hub also with the hub's dampened share (see
 * `ppr-graph.ts`); otherwise it moves to a neighbour in proportion to edge
 * weight. The score of a node is its stationary probability.
 *
 * Two solvers of the same equation:
 * - `push` (default): forward push (Andersen, Chung and Lang 2006) from the
 *   seeds, settling residual mass until every residual is at most
 *   `epsilon × degree`. It touches only the seeds' neighbourhood, so its
 *   cost does not grow with the graph; this is what meets the latency target.
 * - `power`: power iteration over the whole CSR graph, at most `iterations`
 *   rounds (≤ 30), stopping once the L1 change drops below `tol`. The error
 *   shrinks by at least `1 − alpha` a round (0.85^30 ≈ 0.8% L1 after 30); it
 *   costs a pass over every edge per round, so it is the reference in tests
 *   and in the benchmark, not the query-time default.
 * Both are deterministic: fixed iteration order, FIFO queue, no randomness.
 *
 * Query-aware options for ranking (measured on `fixtures/graph-eval/`, see
 * src/graph/README.md): `typeBoost` multiplies the weight of the edge types a query
 * evokes (`relationCues` in `seeds.ts`), and `normalizeByDegree` divides
 * scores by `degree^0.5` so specific nodes beat well-connected ones.
 */
import { buildGraph, type BuildGraphOptions, type GraphEdge, type PprGraph, type PushScratch } from "./ppr-graph.ts";

export { buildGraph };
export type { BuildGraphOptions, GraphEdge, PprGraph };

/** Options of `personalizedPageRank`. */
export interface PprOptions {
  /** Restart probability. Default 0.15. */
  alpha?: number;
  /** Solver. Default `push`. */
  method?: "push" | "power";
  /** Push: residual threshold per unit of degree. Default 3e-5 (see src/graph/README.md for the speed/accuracy trade). */
  epsilon?: number;
  /** Push: hard cap on push operations, a guard for pathological graphs. Default 200,000. */
  maxPushes?: number;
  /** Power: most rounds, clamped to 30. Default 30. */
  iterations?: number;
  /** Power: stop when the L1 change of a round is below this. Default 1e-6. */
  tol?: number;
  /**
   * Per-query edge-type multipliers (e.g. from `relationCues(query)`): an
   * entry of a boosted type weighs that much more when the walk picks a
   * neighbour. 0 removes a type for this query. Default: none.
   */
  typeBoost?: ReadonlyMap<string, number>;
}

/**
 * Scores every node reachable from the seeds (original id → score, only
 * scores > 0). Seed weights are normalised to sum 1; seeds absent from the
 * graph are ignored, and no usable seed gives an empty map.
 */
export function personalizedPageRank(graph: PprGraph, seeds: ReadonlyMap<number, number>, opts: PprOptions = {}): Map<number, number> {
  const alpha = opts.alpha ?? 0.15;
  if (!(alpha > 0 && alpha <= 1)) throw new RangeError("alpha must be in (0, 1]");
  const seed = seedVector(graph, seeds);
  if (seed.idx.length === 0) return new Map();
  const boost = boostVector(graph, opts.typeBoost);
  if (opts.method === "power") {
    return toMap(graph, power(graph, seed, alpha, Math.min(30, Math.max(1, opts.iterations ?? 30)), opts.tol ?? 1e-6, boost));
  }
  return push(graph, seed, alpha, opts.epsilon ?? 3e-5, opts.maxPushes ?? 200_000, boost);
}

/**
 * Divides each score by `degree^beta` (default 0.5), so a specific node a
 * little further away can outrank a well-connected one next to the seeds.
 * Use it to rank results; the PPR scores themselves stay probabilities.
 */
export function normalizeByDegree(graph: PprGraph, scores: ReadonlyMap<number, number>, beta = 0.5): Map<number, number> {
  const out = new Map<number, number>();
  for (const [id, s] of scores) {
    const i = graph.index.get(id);
    out.set(id, i === undefined ? s : s / Math.max(1, graph.degree[i]) ** beta);
  }
  return out;
}

/** Type multipliers by type index, or null when no boost applies (the fast path uses the precomputed `prob`). */
function boostVector(g: PprGraph, boost: ReadonlyMap<string, number> | undefined): Float64Array | null {
  if (boost === undefined || boost.size === 0) return null;
  const b = new Float64Array(g.types.length).fill(1);
  let any = false;
  g.types.forEach((t, i) => {
    const m = boost.get(t);
    if (m !== undefined && m >= 0 && Number.isFinite(m) && m !== 1) {
      b[i] = m;
      any = true;
    }
  });
  return any ? b : null;
}

/** Fills `into` with the row's boosted edge weights (index 0 = row start); returns their sum. */
function boostedRow(g: PprGraph, u: number, boost: Float64Array, into: Float64Array): number {
  let sum = 0;
  for (let k = g.offsets[u], j = 0; k < g.offsets[u + 1]; k++, j++) sum += (into[j] = g.weight[k] * boost[g.typeOf[k]]);
  return sum;
}

/** The `k` best-scored ids, highest first, ties broken by ascending id; `exclude` drops e.g. the seeds. */
export function topScores(scores: ReadonlyMap<number, number>, k: number, exclude?: ReadonlySet<number>): { id: number; score: number }[] {
  const all: { id: number; score: number }[] = [];
  for (const [id, score] of scores) if (!exclude?.has(id)) all.push({ id, score });
  all.sort((a, b) => b.score - a.score || a.id - b.id);
  return all.slice(0, Math.max(0, k));
}

interface Seed {
  idx: number[];
  w: number[];
}

function seedVector(graph: PprGraph, seeds: ReadonlyMap<number, number>): Seed {
  const pairs: [number, number][] = [];
  for (const [id, w] of seeds) {
    const i = graph.index.get(id);
    if (i !== undefined && w > 0 && Number.isFinite(w)) pairs.push([i, w]);
  }
  pairs.sort((a, b) => a[0] - b[0]); // seed order must not depend on Map insertion order
  const total = pairs.reduce((s, p) => s + p[1], 0);
  return { idx: pairs.map((p) => p[0]), w: pairs.map((p) => p[1] / total) };
}

// The push buffers live on the graph (created on first use) and are left zeroed after every run.
function workFor(g: PprGraph, eps: number): PushScratch {
  g.scratch ??= {
    p: new Float64Array(g.n), r: new Float64Array(g.n), queued: new Uint8Array(g.n), seen: new Uint8Array(g.n),
    queue: new Int32Array(g.n), touched: new Int32Array(g.n), threshold: new Float64Array(g.n), thresholdEps: NaN,
  };
  const w = g.scratch;
  if (w.thresholdEps !== eps) {
    for (let u = 0; u < g.n; u++) w.threshold[u] = eps * Math.max(1, g.degree[u]);
    w.thresholdEps = eps;
  }
  return w;
}

function push(g: PprGraph, seed: Seed, alpha: number, eps: number, maxPushes: number, boost: Float64Array | null): Map<number, number> {
  const { p, r, queued, seen, queue, touched, threshold } = workFor(g, eps);
  const { offsets, targets, prob, damp, degree } = g;
  const n = g.n;
  const rowBuf = new Float64Array(boost === null ? 0 : g.maxRow);
  // Ring buffer: each node is queued at most once at a time, so n slots suffice.
  // The hot loops below are written out (no closure over these counters): it is several times faster in V8.
  let head = 0, tail = 0, size = 0, nTouched = 0;
  const seedIdx = seed.idx, seedW = seed.w;
  let restart = 1; // the initial seed mass enters like a restart
  let pushes = 0;
  for (;;) {
    if (restart > 0) {
      for (let i = 0; i < seedIdx.length; i++) {
        const v = seedIdx[i];
        if (seen[v] === 0) { seen[v] = 1; touched[nTouched++] = v; }
        const rv = (r[v] += restart * seedW[i]);
        if (queued[v] === 0 && rv > threshold[v]) { queued[v] = 1; queue[tail] = v; if (++tail === n) tail = 0; size++; }
      }
    }
    if (size === 0 || pushes >= maxPushes) break;
    const u = queue[head];
    if (++head === n) head = 0;
    size--;
    queued[u] = 0;
    const ru = r[u];
    r[u] = 0;
    p[u] += alpha * ru;
    const moving = (1 - alpha) * ru;
    let spread = degree[u] > 0 ? moving * damp[u] : 0;
    // Under a boost the row's weights are recomputed into rowBuf (indexed from the row start) and scaled by their sum.
    let P = prob, shift = 0, mul = spread;
    if (boost !== null && spread > 0) {
      const sum = boostedRow(g, u, boost, rowBuf);
      if (sum > 0) { P = rowBuf; shift = offsets[u]; mul = spread / sum; }
      else spread = 0; // every edge of this node is switched off for the query: it acts as dangling
    }
    if (spread > 0) {
      for (let k = offsets[u], end = offsets[u + 1]; k < end; k++) {
        const v = targets[k];
        if (seen[v] === 0) { seen[v] = 1; touched[nTouched++] = v; }
        const rv = (r[v] += mul * P[k - shift]);
        if (queued[v] === 0 && rv > threshold[v]) { queued[v] = 1; queue[tail] = v; if (++tail === n) tail = 0; size++; }
      }
    }
    restart = moving - spread;
    pushes++;
  }
  // Read out in ascending dense order, then clear only what this run touched.
  const order = touched.subarray(0, nTouched).sort();
  const out = new Map<number, number>();
  for (const u of order) {
    if (p[u] > 0) out.set(g.ids[u], p[u]);
    p[u] = 0; r[u] = 0; queued[u] = 0; seen[u] = 0;
  }
  return out;
}

function power(g: PprGraph, seed: Seed, alpha: number, iterations: number, tol: number, boost: Float64Array | null): Float64Array {
  let x = new Float64Array(g.n);
  let next = new Float64Array(g.n);
  for (let i = 0; i < seed.idx.length; i++) x[seed.idx[i]] = seed.w[i];
  const { offsets, targets, damp, degree } = g;
  // Under a boost the transition table changes for this query only; build it once for all rounds.
  let prob = g.prob;
  let dead: Uint8Array | null = null;
  if (boost !== null) {
    prob = new Float64Array(g.prob.length);
    dead = new Uint8Array(g.n);
    for (let u = 0; u < g.n; u++) {
      const row = prob.subarray(offsets[u], offsets[u + 1]);
      const sum = boostedRow(g, u, boost, row);
      if (sum === 0) dead[u] = 1;
      else for (let j = 0; j < row.length; j++) row[j] /= sum;
    }
  }
  for (let it = 0; it < iterations; it++) {
    next.fill(0);
    let restart = 0;
    for (let u = 0; u < g.n; u++) {
      const xu = x[u];
      if (xu === 0) continue;
      const spread = degree[u] > 0 && (dead === null || dead[u] === 0) ? (1 - alpha) * damp[u] * xu : 0;
      restart += xu - spread;
      for (let k = offsets[u]; k < offsets[u + 1]; k++) next[targets[k]] += spread * prob[k];
    }
    for (let i = 0; i < seed.idx.length; i++) next[seed.idx[i]] += restart * seed.w[i];
    let delta = 0;
    for (let u = 0; u < g.n; u++) delta += Math.abs(next[u] - x[u]);
    [x, next] = [next, x];
    if (delta < tol) break;
  }
  return x;
}

function toMap(g: PprGraph, x: Float64Array): Map<number, number> {
  const out = new Map<number, number>();
  for (let u = 0; u < g.n; u++) if (x[u] > 0) out.set(g.ids[u], x[u]);
  return out;
}
