/**
 * One search over a scope (SPEC §1 Retrieval pipeline steps 3–6): vector and
 * BM25 legs → weighted RRF (k = 60, the vector leg weighted by its agreement
 * with the lexical leg) → PRF when the quality assessment recommends it →
 * rerank of the top 50 (fails open) → the graph leg as a third leg → the
 * temporal view (supersede, conflict, decay). Pure over the indexes; ties
 * break by id so the same store and query give the same list.
 */
import type { Analyzer } from "../lexical/analyzer.ts";
import type { DocTerms } from "../lexical/lexical-index.ts";
import { fetchChunks } from "../store/chunk-reader.ts";
import type { RankedHit } from "./format-hits.ts";
import { reciprocalRankFusion, RRF_K, type RankedList } from "./fusion.ts";
import { expansionWords, type PrfDecision } from "./prf.ts";
import { STATIC_MODEL_ID } from "../embed/static-embedder.ts";
import { assessQuality, type QualityAssessment } from "./quality.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallDeps } from "./recall-deps.ts";
import { clusterScores, rerankHead, rerankQuery } from "./rerank-stage.ts";
import { rerankScore, type RerankQuery } from "./rerank.ts";
import { candidateFilter, type SearchScope } from "./scope.ts";
import { queryDateSpans, spansOverlap, type DaySpan } from "../conversation/dates.ts";

/** What one scope search returns. */
export interface ScopeRun {
  hits: RankedHit[];
  candidates: number;
  quality: QualityAssessment;
  prf: PrfDecision;
}

const ms = (t: number) => Math.round((performance.now() - t) * 1000) / 1000;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Searches one scope. */
export async function searchScope(
  d: RecallDeps, q: RecallQuery, scope: SearchScope, qvec: Float32Array | undefined, nowMs: number,
  tel: Record<string, number | string>, callFilter?: (id: number) => boolean,
): Promise<ScopeRun> {
  const p = d.params;
  const base = candidateFilter(q, d.index, scope, nowMs);
  const filter = callFilter ? (id: number) => base(id) && callFilter(id) : base;
  let t = performance.now();
  const lex = d.index.lexical.search(q.query, p.legDepth, { filter, lex: q.lex });
  tel.fts_ms = ms(t);
  t = performance.now();
  // The vector leg scans the whole store when it is asked for (`vec`, `hyde`, `source: vector`, or the
  // `always` setting) or must rescue an (almost) empty lexical leg. Otherwise it scores the lexical
  // candidates only — their cosines feed the rerank and the confidence, not the fusion — which measured
  // no worse on both train splits and saves the scan (docs/benchmarks.md "Recall quality").
  const vectors = d.index.vectors;
  const asked = q.vec !== undefined || q.hyde !== undefined || q.leg === "vector" || p.vecScan === "always";
  const profile = qvec && d.embedder?.id.startsWith(STATIC_MODEL_ID) ? "static" : "lexical";
  const who = actorSignals(d, q.query, nowMs);
  const acronyms = d.index.size <= SMALL_STORE ? acronymTermIds(d, q.query) : [];
  const legs = async (scan: boolean) => {
    const vec = !qvec || !vectors ? [] : !scan ? vectors.scoreIds(qvec, lex.map((h) => h.id))
      : d.ann ? await annLeg(d.ann, qvec, p.legDepth, filter) : vectors.search(qvec, p.legDepth, filter);
    const lexTop10 = new Set(lex.slice(0, 10).map((h) => h.id));
    const overlap = vec.slice(0, 10).filter((h) => lexTop10.has(h.id)).length;
    const agreement = lex.length && vec.length ? overlap / Math.min(10, lex.length, vec.length) : 0;
    const rq = rerankQuery(d.index.lexical, d.analyzer, q.lex ?? q.query, lex, vec, scan ? vec.length : p.vecFloorRank);
    rq.speaker = who.named.size > 0;
    rq.date = who.dates.length > 0;
    const topDoc = lex[0] ? d.index.lexical.docTerms(lex[0].id) : undefined;
    const top = lex[0] ? rerankScore(rq, topDoc, { lexical: lex[0].score }, p.rerankWeights, p.rerankMaxTerms) : undefined;
    const quality = assessQuality({
      queryTerms: rq.terms.length, known: knownShare(rq), lexCoverage: top?.features.coverage ?? 0, lexBigram: top?.features.bigram ?? 0,
      lexCount: lex.length, vecTop: vec[0]?.score ?? 0, agreement,
    }, p, profile);
    // Issue 24: never abstain when the best lexical hit holds every query term, or its whole title is in the query.
    if (top && top.features.coverage >= 1) quality.answer_guard = "lexical_hit_covers_query";
    else if (topDoc && titleInQuery(topDoc.title, rq)) quality.answer_guard = "title_in_query";
    // In a small store most words of any question are unknown, so the known-term share says little (issue 24):
    // there, a best hit holding every known query term (two at least, half the query or more) is an answer.
    else if (top && d.index.size <= SMALL_STORE && coversKnownTerms(rq, topDoc)) quality.answer_guard = "small_store_known_terms_covered";
    // An acronym is jargon a small store is unlikely to hold by chance, and the static table rarely knows it: a served
    // lexical hit (any of the first `limit`, not only the best — "what is known about AGS" ranks a "known" hit first)
    // holding every acronym of the query the store knows (one at least: an unknown acronym, like any unknown word,
    // says nothing in a small store — "The PRR MDA5 …" against a note spelling out "pattern recognition receptor") is an answer.
    else if (d.index.size <= SMALL_STORE && acronyms.length && lex.slice(0, q.limit).some((h) => holdsAll(d.index.lexical.docTerms(h.id), acronyms))) quality.answer_guard = "small_store_acronyms_held";
    // A question naming a person whose turns (or owned records) the store holds is about this store's memory, and a
    // served lexical hit is that person's own chunk: not off-topic. On LoCoMo dev the confidence model abstained on
    // 12 of 883 such answerable questions (1.4%, over the 1% budget), and on 1 of 272 unanswerable ones (issue 24).
    else if (who.named.size && lex.slice(0, q.limit).some((h) => who.named.has(d.index.actors.actorOf(h.id) ?? ""))) quality.answer_guard = "names_store_speaker";
    return { scan, vec, agreement, rq, quality };
  };
  // The vector leg scans the whole store when it is asked for (`vec`, `hyde`, `source: vector`, or the
  // `always` setting) or must rescue an (almost) empty lexical leg. Otherwise it scores the lexical
  // candidates only — their cosines feed the rerank and the confidence, not the fusion — which measured
  // no worse on both train splits and saves the scan (docs/benchmarks.md "Recall quality").
  let run = await legs(asked || lex.length < p.vecScanBelow);
  // Issue 24: before abstaining on a lexical leg shorter than `limit`, the vector leg rescues (scans and fuses).
  if (!run.scan && qvec && vectors && lex.length < q.limit && !run.quality.answer_guard && run.quality.confidence < p.abstainBelow) run = await legs(true);
  const { scan, vec, agreement, rq, quality } = run;
  tel.vector_ms = ms(t);
  if (qvec && vectors) tel.vector_leg = !scan ? "candidates" : d.ann ? "diskann" : "scan";
  tel.vec_candidates = vec.length;
  tel.fts_candidates = lex.length;
  t = performance.now();
  // The vector leg is weighted by its agreement with the lexical leg (static embeddings are weak alone).
  const vecWeight = !scan ? 0 : !lex.length ? p.vecWeightAlone : agreement >= p.agreeAt ? p.vecWeightAgree : p.vecWeightDisagree;
  const lists: RankedList[] = [
    { name: "fts", ids: lex.map((h) => h.id), weight: p.lexWeight },
    { name: "vector", ids: vec.map((h) => h.id), weight: vecWeight },
  ];
  tel.fusion_ms = ms(t);
  // SPEC §1 step 4: PRF only when the quality assessment recommends it.
  t = performance.now();
  const prf = await runPrf(d, q, quality, lex.map((h) => h.id), filter, lists);
  tel.prf_ms = ms(t);
  const fused = reciprocalRankFusion(lists);
  tel.fused_count = fused.length;
  let ranked: RankedHit[] = fused.map((f) => ({
    id: f.id, fused: r6(f.score), score: 0, ranks: { vector: f.ranks.vector, fts: f.ranks.fts, prf: f.ranks.prf },
  }));
  // SPEC §1 step 5: rerank the top 50; any failure keeps the fused order (fails open).
  t = performance.now();
  const actors = d.index.actors;
  const scores = {
    lexical: new Map(lex.map((h) => [h.id, h.score])), vector: new Map(vec.map((h) => [h.id, h.score])),
    speaker: (id: number) => (who.named.has(actors.actorOf(id) ?? "") ? 1 : 0),
    date: (id: number) => (who.dates.length && spansOverlap(actors.spansOf(id) ?? [], who.dates) ? 1 : 0),
    cluster: clusterScores(d, lex.map((h) => h.id), ranked.slice(0, p.rerankWidth).map((h) => h.id)),
  };
  ranked = await rerankHead(d, q.query, rq, ranked, scores, tel);
  tel.rerank_ms = ms(t);
  // SPEC §1 step 6: the graph leg as a third leg, seeded from the query and the top reranked hits.
  t = performance.now();
  ranked = await graphStage(d, q, ranked, filter);
  tel.graph_ms = ms(t);
  if (d.temporal && ranked.length) {
    const view = await d.temporal(ranked.map((h) => h.id), { atMs: q.atMs, includeDecayed: q.includeDecayed });
    ranked = ranked.filter((h) => !view.drop.has(h.id));
    for (const h of ranked) {
      if (view.conflict.has(h.id)) h.conflict = true;
      if (view.decayed.has(h.id)) h.decayed = true;
    }
  }
  return { hits: ranked, candidates: fused.length, quality, prf };
}

/** Gated pseudo-relevance feedback: a separate, lower-weight lexical pass over expansion words. */
async function runPrf(
  d: RecallDeps, q: RecallQuery, quality: QualityAssessment, lexIds: number[], filter: (id: number) => boolean, lists: RankedList[],
): Promise<PrfDecision> {
  const p = d.params;
  if (q.lex) return { fired: false, reason: "lex override given" };
  if (lexIds.length < 2) return { fired: false, reason: "too_few_lexical_hits" };
  if (quality.recommendation !== "run_prf") return { fired: false, reason: `confidence ${quality.confidence} outside [${p.prfMin}, ${p.prfMax})` };
  const fb = (await fetchChunks(d.db, lexIds.slice(0, p.prfDocs))).sort((a, b) => a.id - b.id);
  const words = expansionWords(d.analyzer, d.analyzer.analyze(q.query).sequence, fb.map((c) => (c.title ? `${c.title}\n${c.content}` : c.content)), p.prfTerms);
  if (!words.length) return { fired: false, reason: "no_expansion_terms" };
  const extra = d.index.lexical.search(words.join(" "), p.legDepth, { filter });
  lists.push({ name: "prf", ids: extra.map((h) => h.id), weight: p.prfWeight });
  return { fired: true, reason: "quality assessment recommended run_prf", terms: words };
}

/**
 * The graph leg enters with the RRF rank formula, weight·(k+1)/(k+1+rank), added to each hit's reranked
 * score; the sum is rescaled by 1 + weight so scores stay in [0, 1]. The leg's own weight (2 for a
 * relational question, less otherwise) is scaled by `graphScale`, chosen on the graph-eval vault.
 * Graph-only hits carry source "graph".
 */
async function graphStage(d: RecallDeps, q: RecallQuery, ranked: RankedHit[], filter: (id: number) => boolean): Promise<RankedHit[]> {
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
  return out.sort((a, b) => b.score - a.score || a.id - b.id);
}

/**
 * Who and when the query names (issue 24): the actors of the first labelled name in it, and the date spans
 * it names (relative phrases against today). Nothing is computed in a store without labels.
 */
function actorSignals(d: RecallDeps, query: string, nowMs: number): { named: ReadonlySet<string>; dates: DaySpan[] } {
  const actors = d.index.actors;
  if (actors.empty) return { named: new Set(), dates: [] };
  const today = Date.UTC(new Date(nowMs).getUTCFullYear(), new Date(nowMs).getUTCMonth(), new Date(nowMs).getUTCDate());
  return { named: actors.named(d.analyzer.analyze(query).sequence), dates: queryDateSpans(query, today) };
}

/** Stores up to this many chunks count as small for the known-terms guard. */
const SMALL_STORE = 1000;

/** True when at least two and at least half of the query's terms are known, and the document holds all of those. */
function coversKnownTerms(rq: RerankQuery, doc: DocTerms | undefined): boolean {
  if (!doc) return false;
  const known = rq.terms.filter((t) => t.id !== undefined);
  if (known.length < 2 || known.length * 2 < rq.terms.length) return false;
  const has = new Set<number>();
  for (let i = 0; i < doc.title.length; i++) has.add(doc.title[i]);
  for (let i = 0; i < doc.content.length; i++) has.add(doc.content[i]);
  return known.every((t) => has.has(t.id!));
}

const ACRONYM = /\b[A-Z][A-Z0-9]{1,6}\b/g;

/** Term ids of the query's acronyms (`TNF`, `IL6`: two capitals at least) that the store knows; unknown ones are left out. */
function acronymTermIds(d: RecallDeps, query: string): number[] {
  const out: number[] = [];
  for (const a of query.match(ACRONYM) ?? []) {
    if (!/[A-Z].*[A-Z]/.test(a)) continue;
    for (const term of d.analyzer.analyze(a).sequence) {
      const id = d.index.lexical.termId(term);
      if (id !== undefined) out.push(id);
    }
  }
  return out;
}

/** True when the document holds every one of the term ids. */
function holdsAll(doc: DocTerms | undefined, ids: readonly (number | undefined)[]): boolean {
  if (!doc) return false;
  const has = new Set<number>();
  for (let i = 0; i < doc.title.length; i++) has.add(doc.title[i]);
  for (let i = 0; i < doc.content.length; i++) has.add(doc.content[i]);
  return ids.every((id) => id !== undefined && has.has(id));
}

/** True when the document's title has terms and every one of them is a query term (the query names the title). */
function titleInQuery(title: ArrayLike<number>, rq: RerankQuery): boolean {
  if (!title.length) return false;
  const ids = new Set(rq.terms.map((t) => t.id));
  for (let i = 0; i < title.length; i++) if (!ids.has(title[i])) return false;
  return true;
}

/** Idf-weighted share of the query's terms the index has seen at all (an off-topic query's words are often unseen). */
function knownShare(rq: RerankQuery): number {
  let all = 0, seen = 0;
  for (const t of rq.terms) {
    all += t.idf;
    if (t.id !== undefined) seen += t.idf;
  }
  return all > 0 ? seen / all : 0;
}

/** The DiskANN vector leg: over-fetches so the scope filter still leaves `k` candidates in the common case. */
async function annLeg(
  ann: NonNullable<RecallDeps["ann"]>, qvec: Float32Array, k: number, filter: (id: number) => boolean,
): Promise<{ id: number; score: number }[]> {
  return (await ann(qvec, k * 3)).filter((h) => filter(h.id)).slice(0, k);
}
