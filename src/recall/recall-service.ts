/**
 * The recall pipeline in SPEC order (§1 Retrieval pipeline): embed once →
 * route → vector + BM25 → weighted RRF (k = 60) → gated PRF → rerank over
 * the top 50 (fails open) → graph leg → cross-domain fallback → cap. Every
 * stage is deterministic: ties break by id, scores are rounded.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { MemoryError } from "../core/errors.ts";
import type { Embedder } from "../embed/embedder.ts";
import type { Analyzer } from "../lexical/analyzer.ts";
import type { Db } from "../store/db.ts";
import { getChunks } from "../store/chunks.ts";
import type { Chunk } from "../core/types.ts";
import { formatHit, legOf, type RankedHit } from "./format-hits.ts";
import { maxFusedScore, reciprocalRankFusion, RRF_K, type RankedList } from "./fusion.ts";
import type { CrossScorer, GraphLeg, TemporalFilter } from "./ports.ts";
import { expansionWords, type PrfDecision } from "./prf.ts";
import { assessQuality } from "./quality.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallIndex } from "./recall-index.ts";
import type { RecallParams } from "./recall-params.ts";
import { rerankScore } from "./rerank.ts";
import { candidateFilter, chooseScope, type SearchScope } from "./scope.ts";

/** What the recall service needs. */
export interface RecallDeps {
  db: Db;
  index: RecallIndex;
  analyzer: Analyzer;
  params: RecallParams;
  embedder?: Embedder;
  clock: () => Date;
  domainExists(name: string): Promise<boolean>;
  graphEnabled: boolean;
  graphLeg?: GraphLeg;
  temporal?: TemporalFilter;
  /** Optional cross-encoder replacing the built-in rerank scores; fails open to them. */
  crossEncoder?: CrossScorer;
  /** Records a replayable decision path; returns the audit row id (SPEC §4.1 `trace`). */
  trace?: (path: Record<string, unknown>) => Promise<number>;
}

const ms = (t: number) => Math.round((performance.now() - t) * 1000) / 1000;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

/** Runs one recall; returns the SPEC §4.1 response body. */
export async function runRecall(
  d: RecallDeps, q: RecallQuery, opts: { piiRead: boolean; filter?: (id: number) => boolean },
): Promise<Record<string, unknown>> {
  if (q.domain !== undefined && !(await d.domainExists(q.domain))) {
    throw new MemoryError("domain_invalid", `domain '${q.domain}' is not registered`, { field: "domain" });
  }
  const tel: Record<string, number | string> = {};
  let t = performance.now();
  const embedText = q.hyde ?? q.vec ?? q.query;
  const qvec = d.embedder && d.index.vectors ? (await d.embedder.embed([embedText]))[0] : undefined;
  tel.embed_ms = ms(t);
  const queryTerms = d.analyzer.analyze(q.lex ?? q.query).sequence;
  const termSet = new Set(queryTerms);
  const scope = chooseScope(q, d.index, qvec, d.params.routeThreshold);
  const nowMs = d.clock().getTime();
  let run = await searchScope(d, q, scope, qvec, queryTerms, nowMs, tel, opts.filter);
  let searched = scope;
  // SPEC §1 step 7: cross-domain fallback on a miss, unless strict (a forced domain stays forced).
  if (!run.hits.length && !q.strict && !scope.forced && scope.domains !== undefined) {
    searched = { ...scope, domains: undefined };
    run = await searchScope(d, q, searched, qvec, queryTerms, nowMs, tel, opts.filter);
  }
  let hits = run.hits;
  if (q.leg) hits = hits.filter((h) => (q.leg === "fts" ? h.ranks.fts !== undefined || h.ranks.prf !== undefined : h.ranks[q.leg!] !== undefined));
  const abstain = run.candidates > 0 && run.quality.confidence < d.params.abstainBelow;
  hits = abstain ? [] : hits.slice(0, q.limit);
  const chunks = new Map((await getChunks(d.db.client, hits.map((h) => h.id))).map((c) => [c.id, c] as const));
  const strategy = run.prf.fired ? "hybrid_prf" : qvec ? "hybrid" : "lexical";
  const served = hits.filter((h) => chunks.has(h.id)).map((h) => formatHit(h, chunks.get(h.id)!, {
    provenance: q.provenance, piiRead: opts.piiRead, queryTerms: termSet, contentWindow: d.params.contentWindow,
    snippetWindow: d.params.snippetWindow, strategy, quality: run.quality as unknown as Record<string, unknown>,
    prfDecision: run.prf as unknown as Record<string, unknown>,
  }));
  const domainsSearched = [...new Set(served.map((h) => chunks.get(h.id as number)!.domain))].sort();
  const out: Record<string, unknown> = {
    hits: served, domain: scope.primary, domainsSearched,
    included_global: scope.primary !== "global" && served.some((h) => chunks.get(h.id as number)!.domain === "global"),
  };
  if (abstain) out.decision = "low_confidence";
  if (q.provenance) {
    Object.assign(tel, { rrf_k: RRF_K, confidence: run.quality.confidence, recommendation: run.quality.recommendation });
    tel.retrieval_ms_vec = tel.vector_ms;
    tel.retrieval_ms_fts = tel.fts_ms;
    if (q.intent !== undefined) tel.intent = q.intent;
    tel.embedding_query = q.hyde !== undefined ? "hyde" : q.vec !== undefined ? "vec" : "query";
    if (searched.routeScore !== undefined) tel.route_score = searched.routeScore;
    out.telemetry = tel;
  }
  if (q.trace && d.trace) {
    // The decision path keeps ids, scores and stage decisions only: the audit log is append-only, so it must
    // never hold query or document words that a later erasure could not remove.
    out.trace_id = await d.trace({
      query_sha256: sha256Hex(q.query), domain: scope.primary, scope: searched.domains ? [...searched.domains].sort() : "all",
      strategy, confidence: run.quality.confidence, abstained: abstain, prf_fired: run.prf.fired,
      hits: hits.map((h) => ({ id: h.id, score: h.score, source: legOf(h.ranks) })),
    });
  }
  return out;
}

interface ScopeRun {
  hits: RankedHit[];
  candidates: number;
  quality: ReturnType<typeof assessQuality>;
  prf: PrfDecision;
}

async function searchScope(
  d: RecallDeps, q: RecallQuery, scope: SearchScope, qvec: Float32Array | undefined, queryTerms: string[], nowMs: number,
  tel: Record<string, number | string>, callFilter?: (id: number) => boolean,
): Promise<ScopeRun> {
  const p = d.params;
  const base = candidateFilter(q, d.index, scope, nowMs);
  const filter = callFilter ? (id: number) => base(id) && callFilter(id) : base;
  let t = performance.now();
  const vec = qvec && d.index.vectors ? d.index.vectors.search(qvec, p.legDepth, filter) : [];
  tel.vector_ms = ms(t);
  t = performance.now();
  const lex = d.index.lexical.search(q.query, p.legDepth, { filter, lex: q.lex });
  tel.fts_ms = ms(t);
  tel.vec_candidates = vec.length;
  tel.fts_candidates = lex.length;
  t = performance.now();
  const lexTop10 = new Set(lex.slice(0, 10).map((h) => h.id));
  const overlap = vec.slice(0, 10).filter((h) => lexTop10.has(h.id)).length;
  const agreement = lex.length && vec.length ? overlap / Math.min(10, lex.length, vec.length) : 0;
  // The vector leg is weighted by its agreement with the lexical leg (static embeddings are weak alone).
  const vecWeight = !lex.length ? p.vecWeightAlone : agreement >= p.agreeAt ? p.vecWeightAgree : p.vecWeightDisagree;
  const uniqueTerms = new Set(queryTerms).size;
  const lexCoverage = lex.length && uniqueTerms ? new Set(lex[0].terms ?? []).size / uniqueTerms : 0;
  const quality = assessQuality({ queryTerms: uniqueTerms, lexCoverage: Math.min(1, lexCoverage), lexCount: lex.length, vecTop: vec[0]?.score ?? 0, agreement }, p);
  const lists: RankedList[] = [
    { name: "fts", ids: lex.map((h) => h.id), weight: p.lexWeight },
    { name: "vector", ids: vec.map((h) => h.id), weight: vecWeight },
  ];
  tel.fusion_ms = ms(t);
  // SPEC §1 step 4: PRF only when the quality assessment recommends it.
  t = performance.now();
  let prf: PrfDecision = { fired: false, reason: lex.length < 2 ? "too_few_lexical_hits" : `confidence ${quality.confidence} outside [${p.prfMin}, ${p.prfMax})` };
  if (quality.recommendation === "run_prf" && lex.length >= 2 && !q.lex) {
    const fb = await getChunks(d.db.client, lex.slice(0, p.prfDocs).map((h) => h.id));
    const words = expansionWords(d.analyzer, queryTerms, fb.sort((a, b) => a.id - b.id).map(textOf), p.prfTerms);
    if (words.length) {
      const extra = d.index.lexical.search(words.join(" "), p.legDepth, { filter });
      lists.push({ name: "prf", ids: extra.map((h) => h.id), weight: p.prfWeight });
      prf = { fired: true, reason: "quality assessment recommended run_prf", terms: words };
    } else prf = { fired: false, reason: "no_expansion_terms" };
  }
  tel.prf_ms = ms(t);
  let fused = reciprocalRankFusion(lists);
  // SPEC §1 step 6: the graph leg as a third fusion leg, seeded from the query and the top fused hits.
  t = performance.now();
  const graphOn = d.graphEnabled && q.graph && d.graphLeg !== undefined;
  let hops: Map<number, unknown[]> | undefined;
  if (graphOn) {
    const g = await d.graphLeg!({ query: q.query, seedChunkIds: fused.slice(0, 10).map((f) => f.id), filter, atMs: q.atMs, limit: p.legDepth });
    hops = g.hops;
    if (g.ids.length) {
      lists.push({ name: "graph", ids: g.ids, weight: g.weight ?? p.graphWeight });
      fused = reciprocalRankFusion(lists);
    }
  }
  tel.graph_ms = ms(t);
  tel.fused_count = fused.length;
  const maxScore = maxFusedScore(lists.map((l) => l.weight));
  let ranked: RankedHit[] = fused.map((f) => ({
    id: f.id, fused: r6(f.score), score: r6(f.score / maxScore),
    ranks: { vector: f.ranks.vector, fts: f.ranks.fts, graph: f.ranks.graph, prf: f.ranks.prf },
    hops: hops?.get(f.id),
  }));
  if (d.temporal && ranked.length) {
    const view = await d.temporal(ranked.map((h) => h.id), { atMs: q.atMs, includeDecayed: q.includeDecayed });
    ranked = ranked.filter((h) => !view.drop.has(h.id));
    for (const h of ranked) {
      if (view.conflict.has(h.id)) h.conflict = true;
      if (view.decayed.has(h.id)) h.decayed = true;
    }
  }
  // SPEC §1 step 5: rerank the top 50; any failure keeps the fused order (fails open).
  t = performance.now();
  try {
    const head = ranked.slice(0, p.rerankWidth);
    const texts = new Map((await getChunks(d.db.client, head.map((h) => h.id))).map((c) => [c.id, textOf(c)] as const));
    const cross = d.crossEncoder ? await crossScores(d.crossEncoder, q.query, head.map((h) => (texts.get(h.id) ?? "").slice(0, p.rerankMaxChars))) : undefined;
    if (d.crossEncoder && !cross) tel.rerank_failed = 1;
    head.forEach((h, i) => {
      const text = texts.get(h.id) ?? "";
      const rr = cross ? { score: cross[i], truncated: text.length > p.rerankMaxChars } : rerankScore(d.analyzer, queryTerms, text, p.rerankMaxChars);
      h.rerank = rr;
      h.score = r6((1 - p.rerankWeight) * h.score + p.rerankWeight * rr.score);
    });
    // Candidates past the rerank width are blended with a rerank score of 0 so the order stays by score.
    for (const h of ranked.slice(p.rerankWidth)) h.score = r6((1 - p.rerankWeight) * h.score);
    ranked.sort((a, b) => b.score - a.score || a.id - b.id);
  } catch {
    tel.rerank_failed = 1;
  }
  tel.rerank_ms = ms(t);
  return { hits: ranked, candidates: fused.length, quality, prf };
}

/** Cross-encoder scores squashed to [0, 1]; undefined on any failure (the tier fails open). */
async function crossScores(ce: CrossScorer, query: string, docs: string[]): Promise<number[] | undefined> {
  try {
    const raw = await ce.score(query, docs);
    if (raw.length !== docs.length || raw.some((x) => !Number.isFinite(x))) return undefined;
    return raw.map((x) => r6(1 / (1 + Math.exp(-x))));
  } catch {
    return undefined;
  }
}

function sha256Hex(s: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(s)));
}

function textOf(c: Chunk): string {
  return c.title ? `${c.title}\n${c.content}` : c.content;
}
