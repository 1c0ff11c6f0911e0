/**
 * The graph leg's place in recall (SPEC §1 Retrieval pipeline step 6): after the rerank, seeded from the query and
 * the top reranked hits. It enters with the RRF rank formula, weight·(k+1)/(k+1+rank), added to each hit's
 * reranked score; the sum is rescaled by 1 + weight so scores stay in [0, 1]. The leg's own weight (2 for a
 * relational question, less otherwise) is scaled by `graphScale`, chosen on the graph-eval vault. Graph-only hits
 * carry source "graph".
 *
 * Issue 36 finding 3: a graph-only chunk of a split document — one neither the lexical nor the vector leg found,
 * reached through the heading entities it shares with its sibling chunks — never displaces a hit with lexical or
 * vector evidence, unless the question is relational (it names an entity and evokes an edge type found near it:
 * the answer is a neighbour that often shares no word with the question). In a store of chunked documents the leg
 * otherwise filled the head with one document's siblings and pushed out the right document that lexical ranked
 * 4th and vector 1st. Graph-only hits that are whole notes keep their place: on the graph-eval vault, demoting
 * them too lowered recall@10 from 0.84 to 0.76 (multi-hop questions whose cue words the leg does not know).
 */
import { RRF_K } from "./fusion.ts";
import type { RankedHit } from "./format-hits.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallDeps } from "./recall-deps.ts";

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;
const evidence = (h: RankedHit) => h.ranks.fts !== undefined || h.ranks.vector !== undefined || h.ranks.prf !== undefined;

/** Adds the graph leg to a reranked list; returns the new order (ties by id). */
export async function graphStage(d: RecallDeps, q: RecallQuery, ranked: RankedHit[], filter: (id: number) => boolean): Promise<RankedHit[]> {
  if (!d.graphEnabled || !q.graph || !d.graphLeg) return ranked;
  const g = await d.graphLeg({ query: q.query, seedChunkIds: ranked.slice(0, 10).map((h) => h.id), filter, atMs: q.atMs, limit: d.params.legDepth });
  if (!g.ids.length) return ranked;
  const w = (g.weight ?? d.params.graphWeight) * d.params.graphScale;
  const byId = new Map(ranked.map((h) => [h.id, h] as const));
  g.ids.forEach((id, rank) => {
    let h = byId.get(id);
    if (!h) byId.set(id, (h = { id, fused: 0, score: 0, ranks: {} }));
    h.ranks.graph = rank;
    h.fused = r6(h.fused + w / (RRF_K + rank + 1));
    h.score += (w * (RRF_K + 1)) / (RRF_K + 1 + rank);
    const hops = g.hops?.get(id);
    if (hops) h.hops = hops;
  });
  const out = [...byId.values()];
  for (const h of out) h.score = r6(h.score / (1 + w));
  const sorted = out.sort((a, b) => b.score - a.score || a.id - b.id);
  if (g.relational || !d.params.graphSiblingsBelowEvidence || !d.index.actors.hasDocuments) return sorted;
  // Graph-only chunks of split documents enter below the lowest-scored evidence hit, in their own order, scaled so
  // the scores stay descending; every other hit keeps its order.
  const sibling = (h: RankedHit) => !evidence(h) && d.index.actors.documentOf(h.id) !== undefined;
  const rest = sorted.filter(sibling);
  if (!rest.length) return sorted;
  const found = sorted.filter((h) => !sibling(h));
  const floor = found.filter(evidence).at(-1)?.score ?? 1;
  const top = rest[0].score;
  if (top > floor) for (const h of rest) h.score = r6(Math.floor((h.score * floor) / top * 1e6) / 1e6);
  // Equal scores: the evidence hit first.
  return sorted.sort((a, b) => b.score - a.score || (sibling(a) ? 1 : 0) - (sibling(b) ? 1 : 0) || a.id - b.id);
}
