/**
 * One search over a scope (SPEC §1 Retrieval pipeline steps 3–6): vector and
 * BM25 legs → weighted RRF (k = 60, the vector leg weighted by its agreement
 * with the lexical leg) → PRF when the quality assessment recommends it →
 * rerank of the top 50 (fails open) → the graph leg as a third leg → the
 * temporal view (supersede, conflict, decay). Pure over the indexes; ties
 * break by id so the same store and query give the same list.
 */
import { fetchChunks } from "../store/chunk-reader.ts";
import type { RankedHit } from "./format-hits.ts";
import { reciprocalRankFusion, type RankedList } from "./fusion.ts";
import { expansionWords, type PrfDecision } from "./prf.ts";
import { STATIC_MODEL_ID } from "../embed/static-embedder.ts";
import { assessQuality, type QualityAssessment } from "./quality.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallDeps } from "./recall-deps.ts";
import { acronymTermIds, answerGuard, legsAgreeOnTop, SMALL_STORE, vectorStandsOut } from "./answer-guard.ts";
import { capPerDocument } from "./document-cap.ts";
import { graphStage } from "./graph-stage.ts";
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
    quality.answer_guard = answerGuard(d, { limit: q.limit, rq, lex, topCoverage: top?.features.coverage, topDoc, named: who.named, acronyms });
    // Issue 36: about to abstain in a small store — do the two legs agree on the best lexical hit?
    if (!quality.answer_guard && quality.confidence < p.abstainBelow && legsAgreeOnTop(d, rq, lex, topDoc, qvec, filter)) quality.answer_guard = "small_store_legs_agree";
    // …or does the vector leg's nearest chunk stand far out from the rest of the store?
    if (!quality.answer_guard && quality.confidence < p.abstainBelow && scan && !d.ann && vectorStandsOut(d, lex, qvec, vec[0]?.id, filter)) quality.answer_guard = "small_store_vector_standout";
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
    speaker: (id: number) => who.named.get(actors.actorOf(id) ?? "") ?? 0,
    date: (id: number) => (who.dates.length && spansOverlap(actors.spansOf(id) ?? [], who.dates) ? 1 : 0),
    cluster: clusterScores(d, lex.map((h) => h.id), ranked.slice(0, p.rerankWidth).map((h) => h.id)),
  };
  ranked = await rerankHead(d, q.query, rq, ranked, scores, tel);
  tel.rerank_ms = ms(t);
  // SPEC §1 step 6: the graph leg as a third leg, seeded from the query and the top reranked hits.
  t = performance.now();
  ranked = await graphStage(d, q, ranked, filter);
  tel.graph_ms = ms(t);
  // Issue 36 finding 3: one document's sibling chunks do not fill the head unless the query names that document.
  ranked = capPerDocument(d, rq, ranked);
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
 * Who and when the query names (issue 24): the actors of the first labelled name in it, and the date spans
 * it names (relative phrases against today). Nothing is computed in a store without labels.
 */
function actorSignals(d: RecallDeps, query: string, nowMs: number): { named: ReadonlyMap<string, number>; dates: DaySpan[] } {
  const actors = d.index.actors;
  if (actors.empty) return { named: new Map(), dates: [] };
  const today = Date.UTC(new Date(nowMs).getUTCFullYear(), new Date(nowMs).getUTCMonth(), new Date(nowMs).getUTCDate());
  const lead = SUBJECT.exec(query)?.[1];
  const named = actors.named(d.analyzer.analyze(query).sequence, d.params.speakerOthers, lead ? d.analyzer.analyze(lead).sequence : []);
  return { named, dates: queryDateSpans(query, today) };
}

/**
 * The question's grammatical subject when a name follows its auxiliary ("what does Bob help her with"): with two
 * people named ("According to Alice, what does Bob help her with?") the evidence is the subject's turn, not the
 * first-named one's (issue 36 finding 4). Bounded: one pass of a linear pattern over a query of ≤ 2,000 bytes.
 */
const SUBJECT = /\b(?:[Dd](?:oes|id|o)|[Ii]s|[Ww](?:as|ere|ill|ould)|[Aa]re|[Hh](?:as|ad|ave)|[Cc](?:an|ould)|[Ss]hould)\s+(\p{Lu}[\p{L}'’-]{0,40})/u;

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
