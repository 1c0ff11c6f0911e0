/**
 * Builds the compact adjacency the graph leg walks (SPEC §1 Retrieval
 * pipeline step 6): a CSR (compressed sparse row) graph in typed arrays,
 * built once from the current edges of a domain and reused for every query.
 *
 * Rules (documented in `src/graph/README.md`):
 * - Edges are treated as undirected for propagation: "Priya works_at Acme"
 *   lets a query about Acme reach Priya and one about Priya reach Acme.
 *   Self-loops are dropped; parallel edges of one type between two nodes
 *   add up, edges of different types stay separate entries (so a query can
 *   boost a type, see `ppr.ts`).
 * - Edge weight by type: taxonomy types (`tagged_with`, `alias_of`) 0.1,
 *   every semantic type 1.0 (SPEC §1 step 6), overridable per type.
 * - Mega-hub dampening: a node whose distinct-neighbour degree `d` exceeds
 *   the hub threshold `T` (the 99th-percentile degree, at most 8 × the
 *   mean degree, at least `hubMinDegree` = 16) gets the factor `h = sqrt(T / d)` (1 for non-hubs), used
 *   twice: an edge into the hub weighs `h` times less when a neighbour picks
 *   where to go (so the walk prefers specific neighbours, like IDF), and the
 *   hub passes on only `h` of its own outgoing mass, the rest restarting at
 *   the seeds. `h` is continuous at `d = T` and falls fast for true mega-hubs.
 */

/** One current edge between two node ids (entity ids). */
export interface GraphEdge {
  from: number;
  to: number;
  type: string;
}

/** Options of `buildGraph`; every field has a default. */
export interface BuildGraphOptions {
  /** Types weighted as taxonomy. Default `["tagged_with", "alias_of"]`. */
  taxonomyTypes?: readonly string[];
  /** Weight of a taxonomy edge. Default 0.1 (SPEC §1 step 6). */
  taxonomyWeight?: number;
  /** Weight of any other edge. Default 1.0 (SPEC §1 step 6). */
  semanticWeight?: number;
  /** Per-type weight overrides, applied before the two defaults. */
  typeWeights?: Readonly<Record<string, number>>;
  /** Degree percentile that marks a hub. Default 0.99. */
  hubPercentile?: number;
  /** Lowest hub threshold, so small graphs have no hubs. Default 16. */
  hubMinDegree?: number;
  /** The threshold never exceeds this multiple of the mean degree. Default 8. */
  hubMeanMultiple?: number;
  /** Turn mega-hub dampening off (for comparisons). Default true. */
  hubDampening?: boolean;
}

/** The CSR graph: dense indices 0..n-1 map to the original node ids (ascending). */
export interface PprGraph {
  /** Number of nodes. */
  n: number;
  /** Dense index → original id, ascending. */
  ids: Float64Array;
  /** Original id → dense index. */
  index: Map<number, number>;
  /** Row offsets (length n+1) into `targets` / `prob`. */
  offsets: Int32Array;
  /** Neighbour dense indices, ascending within a row (one entry per neighbour and type). */
  targets: Int32Array;
  /** Edge weight of each entry (type weight, parallel same-type edges summed, scaled by the target's hub factor). */
  weight: Float64Array;
  /** Type index (into `types`) of each entry. */
  typeOf: Uint32Array;
  /** Edge types seen, ascending. */
  types: string[];
  /** Transition probability of each entry: its weight over the row's weight sum. */
  prob: Float64Array;
  /** Distinct-neighbour degree per node. */
  degree: Int32Array;
  /** Hub factor `h`: share of a node's walk mass passed on, and the scale of edges into it (1 unless a hub). */
  damp: Float64Array;
  /** The degree above which a node counts as a hub. */
  hubThreshold: number;
  /** Longest row (entries of one node). */
  maxRow: number;
  /** Reusable buffers of the push solver, made on first query (runs are synchronous, so never shared by two). */
  scratch?: PushScratch;
}

/** Work buffers of the push solver (all zero between runs). */
export interface PushScratch {
  p: Float64Array;
  r: Float64Array;
  queued: Uint8Array;
  seen: Uint8Array;
  queue: Int32Array;
  touched: Int32Array;
  /** Per-node push threshold `epsilon × max(1, degree)`, for `thresholdEps`. */
  threshold: Float64Array;
  thresholdEps: number;
}

const DEFAULT_TAXONOMY = ["tagged_with", "alias_of"] as const;

/** Builds the CSR graph from current edges (deterministic for a given edge multiset). */
export function buildGraph(edges: readonly GraphEdge[], opts: BuildGraphOptions = {}): PprGraph {
  const taxonomy = new Set(opts.taxonomyTypes ?? DEFAULT_TAXONOMY);
  const tw = opts.taxonomyWeight ?? 0.1;
  const sw = opts.semanticWeight ?? 1.0;
  const overrides = opts.typeWeights ?? {};
  const weightOf = (type: string): number =>
    Object.hasOwn(overrides, type) ? overrides[type] : taxonomy.has(type) ? tw : sw;

  // Dense indices in ascending id order, so the layout does not depend on edge order.
  const idSet = new Set<number>();
  for (const e of edges) {
    idSet.add(e.from);
    idSet.add(e.to);
  }
  const ids = Float64Array.from(idSet).sort();
  const n = ids.length;
  const index = new Map<number, number>();
  for (let i = 0; i < n; i++) index.set(ids[i], i);

  const types = [...new Set(edges.map((e) => e.type))].sort();
  const typeId = new Map(types.map((t, i) => [t, i]));

  // Pass 1: raw (unmerged) row sizes, both directions.
  const rawCount = new Int32Array(n + 1);
  for (const e of edges) {
    if (e.from === e.to || !(weightOf(e.type) > 0)) continue;
    rawCount[index.get(e.from)!]++;
    rawCount[index.get(e.to)!]++;
  }
  const rawOff = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) rawOff[i + 1] = rawOff[i] + rawCount[i];
  const rawT = new Int32Array(rawOff[n]);
  const rawY = new Uint32Array(rawOff[n]);
  const rawW = new Float64Array(rawOff[n]);
  const fill = rawOff.slice(0, n);
  for (const e of edges) {
    const w = weightOf(e.type);
    if (e.from === e.to || !(w > 0)) continue;
    const a = index.get(e.from)!, b = index.get(e.to)!, y = typeId.get(e.type)!;
    rawT[fill[a]] = b; rawY[fill[a]] = y; rawW[fill[a]++] = w;
    rawT[fill[b]] = a; rawY[fill[b]] = y; rawW[fill[b]++] = w;
  }

  // Pass 2: sort each row by (target, type), merge same-type parallel edges, count distinct neighbours.
  const offsets = new Int32Array(n + 1);
  const targets = new Int32Array(rawT.length);
  const typeOf = new Uint32Array(rawT.length);
  const weight = new Float64Array(rawT.length);
  const degree = new Int32Array(n);
  let out = 0;
  const order = new Int32Array(rawT.length);
  const before = (x: number, y: number) => rawT[x] - rawT[y] || rawY[x] - rawY[y] || x - y;
  for (let u = 0; u < n; u++) {
    offsets[u] = out;
    const a = rawOff[u], b = rawOff[u + 1];
    for (let k = a; k < b; k++) order[k] = k;
    if (b - a <= 32) {
      // Insertion sort: rows are short on average, and this avoids a comparator call per pair.
      for (let i = a + 1; i < b; i++) {
        const x = order[i];
        let j = i - 1;
        while (j >= a && before(order[j], x) > 0) { order[j + 1] = order[j]; j--; }
        order[j + 1] = x;
      }
    } else order.subarray(a, b).sort(before);
    const rowStart = out;
    for (let i = a; i < b; i++) {
      const k = order[i];
      if (out > rowStart && targets[out - 1] === rawT[k] && typeOf[out - 1] === rawY[k]) {
        weight[out - 1] += rawW[k];
        continue;
      }
      if (out === rowStart || targets[out - 1] !== rawT[k]) degree[u]++;
      targets[out] = rawT[k]; typeOf[out] = rawY[k]; weight[out++] = rawW[k];
    }
  }
  offsets[n] = out;

  // Pass 3: hub factors scale the edges into hubs; each row's weights become probabilities.
  const hubThreshold = hubThresholdOf(degree, opts.hubPercentile ?? 0.99, opts.hubMinDegree ?? 16, opts.hubMeanMultiple ?? 8);
  const damp = new Float64Array(n).fill(1);
  if (opts.hubDampening !== false) {
    for (let u = 0; u < n; u++) if (degree[u] > hubThreshold) damp[u] = Math.sqrt(hubThreshold / degree[u]);
  }
  const prob = new Float64Array(out);
  let maxRow = 0;
  for (let u = 0; u < n; u++) {
    maxRow = Math.max(maxRow, offsets[u + 1] - offsets[u]);
    let sum = 0;
    for (let k = offsets[u]; k < offsets[u + 1]; k++) sum += (weight[k] *= damp[targets[k]]);
    for (let k = offsets[u]; k < offsets[u + 1]; k++) prob[k] = weight[k] / sum;
  }
  return {
    n, ids, index, offsets, targets: targets.slice(0, out), weight: weight.slice(0, out), typeOf: typeOf.slice(0, out), types,
    prob, degree, damp, hubThreshold, maxRow,
  };
}

/**
 * Hub threshold: the degree at the given percentile (nearest rank), capped
 * at `meanMultiple` × the mean degree (in a small graph one hub is already
 * more than 1% of the nodes and would otherwise set the percentile itself),
 * and never below `floor`.
 */
function hubThresholdOf(degree: Int32Array, percentile: number, floor: number, meanMultiple: number): number {
  if (degree.length === 0) return floor;
  const sorted = Int32Array.from(degree).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(percentile * sorted.length) - 1));
  let total = 0;
  for (const d of degree) total += d;
  return Math.max(floor, Math.min(sorted[rank], Math.ceil(meanMultiple * (total / degree.length))));
}
