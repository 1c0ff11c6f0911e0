/**
 * The graph leg of recall (SPEC §1 Retrieval pipeline step 6): Personalized
 * PageRank over the current edges, seeded from the entities the query
 * names and the entities of the top fused hits, mapped back to chunks and
 * fused by the recall engine as a third RRF list.
 *
 * 1. Seeds. Query entities (`query-entities.ts`) weigh `querySeedWeight`
 *    each; the entities linked to the top `hitSeedChunks` fused chunks
 *    share `hitSeedMass`, more for better-ranked chunks. Every seed weight is
 *    divided by log2(2 + chunks linked to the entity), so a name that a
 *    thousand chunks mention pulls less than a specific one. Only entities
 *    with a chunk the request may see (the engine's filter: scope,
 *    kinds, since, at, decay, quarantine) seed the walk; a tag never seeds
 *    it from a hit and never maps its score to chunks (issue 22 item 4).
 * 2. Walk. `personalizedPageRank` (push solver) over the model's CSR:
 *    taxonomy edges weigh 0.1, semantic ones 1.0, mega-hubs dampened
 *    (`ppr-graph.ts`). With `at`, the graph as of then.
 * 3. Chunks. A chunk scores the sum, over its linked entities that are not
 *    seeds, of the entity's PageRank divided by its linked-chunk count (one
 *    step of the walk from entity to chunk). Seeds are left out so the leg
 *    ranks what the graph adds, not what the query already matched.
 * 4. Weight: how far the engine should trust the leg for this query. A
 *    relational question — it names entities, and an edge of a type its
 *    words evoke lies within `cueRadius` hops of them — weighs
 *    `weightRelational` (high: the answer is a neighbour, often sharing no
 *    word with the query); entities without such an edge weigh
 *    `weightWithQueryEntities`; seeded only from hits, `weightHitsOnly`.
 * 5. Hops. For the best `hopTargets` chunks, the shortest current-edge
 *    chain from a seed to the chunk's best-scored entity, as SPEC §2.6
 *    graph hops `{from:{id,name}, relation, to:{id,name}}`.
 */
import type { GraphLeg, GraphLegInput } from "../recall/ports.ts";
import type { Db } from "../store/db.ts";
import type { GraphModel } from "./graph-model.ts";
import { personalizedPageRank } from "./ppr.ts";
import { matchEntityNames, relationCues } from "./seeds.ts";
import type { Hop } from "./traverse.ts";

/** Tunables of the leg (defaults chosen on the graph eval and SciFact train; see `src/graph/README.md`). */
export interface GraphLegParams {
  querySeedWeight: number;
  hitSeedChunks: number;
  /** Total seed mass of the hit entities when the query names entities (each query entity weighs `querySeedWeight`). */
  hitSeedMass: number;
  /** Total seed mass of the hit entities when the query names none. */
  hitSeedMassAlone: number;
  /** Leave the top fused chunks (the seed chunks) out of the graph list. */
  rescueOnly: boolean;
  alpha: number;
  /** Fusion weight when the query names entities and an edge type it evokes lies near them (a relational question). */
  weightRelational: number;
  /** Fusion weight when the query names entities but evokes no edge type found near them. */
  weightWithQueryEntities: number;
  /** Fusion weight when only the top hits seed the walk. */
  weightHitsOnly: number;
  /**
   * Fusion weight of a relational question whose answers the other legs already ranked on top: every chunk
   * about an entity one cued edge away from a query entity is among the seed chunks, so the graph has nothing
   * to rescue and its list would only push those answers down.
   */
  weightAnswered: number;
  /** Hops from the query entities searched for an edge of an evoked type. */
  cueRadius: number;
  hopTargets: number;
  /** Share of an entity's score given to a chunk about it (subject link) versus one that only mentions it. */
  subjectLink: number;
  mentionLink: number;
  /** Weight multiplier of the edge types the query's words evoke (`relationCues`). */
  cueBoost: number;
  /** Scores are divided by degree^beta before mapping to chunks (as `normalizeByDegree`). */
  degreeBeta: number;
  /** Push-solver residual threshold (`personalizedPageRank` epsilon). */
  epsilon: number;
  /** Only this many best-scored entities are mapped to chunks. */
  topEntities: number;
  /** Hop chains longer than this are not reported. */
  maxHops: number;
}

/** Defaults. */
export const DEFAULT_GRAPH_LEG_PARAMS: Readonly<GraphLegParams> = Object.freeze({
  querySeedWeight: 1,
  hitSeedChunks: 3,
  hitSeedMass: 0.1,
  hitSeedMassAlone: 1,
  rescueOnly: true,
  alpha: 0.15,
  weightRelational: 2,
  weightWithQueryEntities: 0.5,
  weightHitsOnly: 0.25,
  weightAnswered: 0.5,
  cueRadius: 2,
  hopTargets: 20,
  cueBoost: 5,
  degreeBeta: 0.5,
  epsilon: 1e-4,
  topEntities: 256,
  subjectLink: 1,
  mentionLink: 0.25,
  maxHops: 4,
});

/** What one run of the leg found (the engine reads `ids`, `hops` and `weight`; the rest is for eval and tests). */
export interface GraphLegResult {
  ids: number[];
  hops: Map<number, Hop[]>;
  weight: number;
  querySeeds: number[];
  hitSeeds: number[];
  /** True when an edge of a type the query evokes lies within `cueRadius` hops of a query entity. */
  relational: boolean;
}

/** Runs the leg once; `runGraphLeg` is the pure-ish core, `createGraphLeg` the engine seam. */
export function runGraphLeg(model: GraphModel, input: GraphLegInput, params: GraphLegParams = DEFAULT_GRAPH_LEG_PARAMS): GraphLegResult {
  const empty = { ids: [], hops: new Map(), weight: 0, querySeeds: [], hitSeeds: [], relational: false };
  const visible = (entityId: number) => {
    for (const c of model.chunksOf(entityId).keys()) if (input.filter(c)) return true;
    return false;
  };
  const specificity = (entityId: number) => 1 / Math.log2(2 + model.chunksOf(entityId).size);
  // Issue 22 item 4: a tag neither seeds the walk from a hit nor hands its score to the chunks it tags, so a
  // note that shares only a tag with a hit is never added.
  const isTag = (entityId: number) =>
    model.entity(entityId)?.type === "tag" || model.edgesAt(entityId).some((e) => e.type === "tagged_with" && e.to === entityId);

  const seeds = new Map<number, number>();
  const querySeeds: number[] = [];
  for (const name of matchEntityNames(input.query, (k) => model.named(k).length > 0, { maxWords: Math.min(8, model.maxWords) })) {
    for (const id of model.named(name)) {
      if (!visible(id) || seeds.has(id)) continue;
      seeds.set(id, params.querySeedWeight * specificity(id));
      querySeeds.push(id);
    }
  }
  const hitSeeds: number[] = [];
  const hitMass = querySeeds.length ? params.hitSeedMass : params.hitSeedMassAlone;
  const top = hitMass > 0 ? input.seedChunkIds.slice(0, params.hitSeedChunks) : [];
  const rankMass = top.map((_, r) => 1 / (r + 1));
  const massTotal = rankMass.reduce((a, b) => a + b, 0);
  top.forEach((chunkId, r) => {
    const ents = [...model.entitiesOf(chunkId)].filter((id) => visible(id) && !isTag(id));
    for (const id of ents) {
      const w = (hitMass * rankMass[r]) / massTotal / ents.length * specificity(id);
      seeds.set(id, (seeds.get(id) ?? 0) + w);
      if (!querySeeds.includes(id) && !hitSeeds.includes(id)) hitSeeds.push(id);
    }
  });
  if (seeds.size === 0) return empty;

  const graph = model.graph(input.atMs);
  const cues = relationCues(input.query);
  const typeBoost = new Map(cues.map((t) => [t, params.cueBoost] as const));
  const ppr = personalizedPageRank(graph, seeds, { alpha: params.alpha, typeBoost, epsilon: params.epsilon });
  // Rank entities by degree-normalised score (as `normalizeByDegree`); only the best `topEntities` are mapped to chunks.
  const isQuerySeed = new Set(querySeeds);
  const entIds: number[] = [];
  const entScore: number[] = [];
  for (const [id, p] of ppr) {
    if (isQuerySeed.has(id)) continue;
    entIds.push(id);
    entScore.push(p / Math.max(1, graph.degree[graph.index.get(id)!]) ** params.degreeBeta);
  }
  const order = topIndices(entScore, entIds, params.topEntities);
  const share = (entityId: number, subject: boolean, s: number, total: number) => (s * (subject ? params.subjectLink : params.mentionLink)) / total;
  // Graph rescue (SPEC §1 item 3): the chunks the other legs already ranked on top are not re-ranked here.
  const already = params.rescueOnly ? new Set(input.seedChunkIds) : new Set<number>();
  const chunkScore = new Map<number, number>();
  const entityScore = new Map<number, number>();
  for (const i of order) {
    const entityId = entIds[i], s = entScore[i];
    if (isTag(entityId)) continue;
    const total = model.linkWeight(entityId, params.subjectLink, params.mentionLink);
    if (total === 0) continue;
    entityScore.set(entityId, s);
    for (const [c, subject] of model.chunksOf(entityId)) {
      if (already.has(c) || !input.filter(c)) continue;
      chunkScore.set(c, (chunkScore.get(c) ?? 0) + share(entityId, subject, s, total));
    }
  }
  const ids = [...chunkScore.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, Math.max(0, input.limit)).map(([id]) => id);
  // The entity that gave each reported chunk the most, for its hop chain.
  const bestEntity = (c: number): number => {
    let best = -1, bestPart = -1;
    for (const e of model.entitiesOf(c)) {
      const s = entityScore.get(e);
      if (s === undefined) continue;
      const part = share(e, model.chunksOf(e).get(c) === true, s, model.linkWeight(e, params.subjectLink, params.mentionLink));
      if (part > bestPart || (part === bestPart && e < best)) [best, bestPart] = [e, part];
    }
    return best;
  };
  const sources = querySeeds.length ? querySeeds : hitSeeds;
  const hops = hopChains(model, sources, ids.slice(0, params.hopTargets).map((id) => [id, bestEntity(id)]), params.maxHops, input.atMs);
  const relational = querySeeds.length > 0 && cues.length > 0 && cuesNear(model, querySeeds, new Set(cues), params.cueRadius, input.atMs);
  // Issue 22: with real relation edges (a Basic Memory vault) the other legs often find the answer themselves
  // ("Who maintains X?" matches the line `- maintains [[X]]`); then the rescue list must not outweigh them.
  const answered = relational && params.rescueOnly && cueAnswersFound(model, querySeeds, new Set(cues), new Set(input.seedChunkIds), input.filter, input.atMs);
  const weight = !querySeeds.length ? params.weightHitsOnly : relational ? (answered ? params.weightAnswered : params.weightRelational) : params.weightWithQueryEntities;
  return { ids, hops, weight, querySeeds, hitSeeds, relational };
}

const HOP_SEARCH_CAP = 4096;

/**
 * True when the query entities have an edge of a cued type and every visible chunk about the entity at its
 * other end is already among the seed chunks (the fused top the leg rescues from).
 */
function cueAnswersFound(
  model: GraphModel, querySeeds: readonly number[], types: ReadonlySet<string>, top: ReadonlySet<number>, visible: (chunkId: number) => boolean, atMs?: number,
): boolean {
  let answers = 0;
  for (const u of querySeeds) {
    for (const e of model.edgesAt(u, atMs)) {
      if (!types.has(e.type)) continue;
      for (const [c, subject] of model.chunksOf(e.from === u ? e.to : e.from)) {
        if (!subject || !visible(c)) continue;
        if (!top.has(c)) return false;
        answers++;
      }
    }
  }
  return answers > 0;
}

/** Indices of the `k` highest scores (ties by ascending id), best first; a native numeric sort finds the cut-off first. */
function topIndices(scores: readonly number[], ids: readonly number[], k: number): number[] {
  if (scores.length === 0 || k <= 0) return [];
  let cut = -Infinity;
  if (scores.length > k) {
    const sorted = Float64Array.from(scores).sort();
    cut = sorted[sorted.length - k];
  }
  const picked: number[] = [];
  for (let i = 0; i < scores.length; i++) if (scores[i] >= cut) picked.push(i);
  return picked.sort((a, b) => scores[b] - scores[a] || ids[a] - ids[b]).slice(0, k);
}

/** True when an edge of one of `types` touches a node within `radius` hops of the sources (bounded like the hop search). */
function cuesNear(model: GraphModel, sources: readonly number[], types: ReadonlySet<string>, radius: number, atMs?: number): boolean {
  const seen = new Set(sources);
  let frontier = [...sources];
  for (let depth = 0; depth < radius && frontier.length && seen.size < HOP_SEARCH_CAP; depth++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (const e of model.edgesAt(u, atMs)) {
        if (types.has(e.type)) return true;
        const v = e.from === u ? e.to : e.from;
        if (!seen.has(v)) {
          seen.add(v);
          next.push(v);
        }
      }
    }
    frontier = next;
  }
  return false;
}

/** Shortest edge chains from any source to each target (breadth-first, deterministic neighbour order). */
function hopChains(model: GraphModel, sources: readonly number[], targets: [number, number][], maxHops: number, atMs?: number): Map<number, Hop[]> {
  const out = new Map<number, Hop[]>();
  if (!sources.length || !targets.length) return out;
  const want = new Set(targets.map(([, e]) => e));
  const parent = new Map<number, { edge: { from: number; to: number; type: string }; prev: number } | null>();
  let frontier = [...sources].sort((a, b) => a - b);
  for (const s of frontier) parent.set(s, null);
  let found = 0;
  // The walk stops at `maxHops` or after HOP_SEARCH_CAP nodes, so a mega-hub near the seeds cannot make it scan the graph.
  for (let depth = 0; depth < maxHops && frontier.length && found < want.size && parent.size < HOP_SEARCH_CAP; depth++) {
    const next: number[] = [];
    for (const u of frontier) {
      if (parent.size >= HOP_SEARCH_CAP) break;
      const es = model.edgesAt(u, atMs).sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || a.id - b.id);
      for (const e of es) {
        const v = e.from === u ? e.to : e.from;
        if (parent.has(v)) continue;
        parent.set(v, { edge: e, prev: u });
        next.push(v);
        if (want.has(v)) found++;
      }
    }
    frontier = next;
  }
  const ref = (id: number) => ({ id, name: model.entity(id)?.display ?? String(id) });
  for (const [chunkId, target] of targets) {
    if (!parent.has(target)) continue;
    const hops: Hop[] = [];
    for (let step = parent.get(target); step; step = parent.get(step.prev)) {
      hops.push({ from: ref(step.edge.from), relation: step.edge.type, to: ref(step.edge.to) });
    }
    if (hops.length) out.set(chunkId, hops.reverse());
  }
  return out;
}

/** The seam the recall engine calls (`recallEngine.setGraphLeg`). */
export function createGraphLeg(model: GraphModel, db: Db, params: () => GraphLegParams = () => DEFAULT_GRAPH_LEG_PARAMS): GraphLeg {
  return async (input) => {
    await model.sync(db);
    const p = params();
    const r = runGraphLeg(model, input, p);
    // Relational and not already answered by the other legs (then its weight is `weightAnswered`): issue 36.
    return { ids: r.ids, hops: r.hops as Map<number, unknown[]>, weight: r.weight, relational: r.relational && r.weight === p.weightRelational };
  };
}
