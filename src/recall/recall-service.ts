/**
 * The recall pipeline in SPEC order (§1 Retrieval pipeline): embed once →
 * route → vector + BM25 → weighted RRF (k = 60) → gated PRF → rerank over
 * the top 50 (fails open) → graph leg → cross-domain fallback → cap. Every
 * stage is deterministic: ties break by id, scores are rounded. One scope's
 * search is `searchScope` (src/recall/search-scope.ts).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Deadline } from "../core/deadline.ts";
import { MemoryError } from "../core/errors.ts";
import { fetchChunks } from "../store/chunk-reader.ts";
import { formatHit, legOf } from "./format-hits.ts";
import { RRF_K } from "./fusion.ts";
import type { RecallQuery } from "./query-doc.ts";
import type { RecallDeps } from "./recall-deps.ts";
import { chooseScope } from "./scope.ts";
import { searchScope } from "./search-scope.ts";

export type { RecallDeps } from "./recall-deps.ts";

const ms = (t: number) => Math.round((performance.now() - t) * 1000) / 1000;

/**
 * Runs one recall; returns the SPEC §4.1 response body. `opts.deadline` is the search budget (SPEC §7): checked
 * between the stages and inside the legs' loops, so a search past it stops with its error.
 */
export async function runRecall(
  d: RecallDeps, q: RecallQuery, opts: { piiRead: boolean; filter?: (id: number) => boolean; deadline?: Deadline },
): Promise<Record<string, unknown>> {
  const dl = opts.deadline;
  if (q.domain !== undefined && !(await d.domainExists(q.domain))) {
    throw new MemoryError("domain_invalid", `domain '${q.domain}' is not registered`, { field: "domain" });
  }
  const tel: Record<string, number | string> = {};
  let t = performance.now();
  const embedText = q.hyde ?? q.vec ?? q.query;
  const qvec = d.embedder && d.index.vectors ? (await d.embedder.embed([embedText]))[0] : undefined;
  tel.embed_ms = ms(t);
  if (dl?.due()) await dl.pace();
  else dl?.check();
  const termSet = new Set(d.analyzer.analyze(q.lex ?? q.query).sequence);
  const scope = chooseScope(q, d.index, qvec, d.params.routeThreshold);
  const nowMs = d.clock().getTime();
  let run = await searchScope(d, q, scope, qvec, nowMs, tel, opts.filter, dl);
  let searched = scope;
  // SPEC §1 step 7: cross-domain fallback on a miss, unless strict (a forced domain stays forced).
  if (!run.hits.length && !q.strict && !scope.forced && scope.domains !== undefined) {
    searched = { ...scope, domains: undefined };
    run = await searchScope(d, q, searched, qvec, nowMs, tel, opts.filter, dl);
  }
  let hits = run.hits;
  if (q.leg) hits = hits.filter((h) => (q.leg === "fts" ? h.ranks.fts !== undefined || h.ranks.prf !== undefined : h.ranks[q.leg!] !== undefined));
  // Calibrated abstention (SPEC §1): below the threshold the answer is "no confident answer", not weak hits.
  // Issue 24: never when the lexical evidence rules it out (`answer_guard`), nor when the caller sent `abstain: false`.
  const abstain = q.abstain && !run.quality.answer_guard && run.quality.confidence < d.params.abstainBelow;
  hits = abstain ? [] : hits.slice(0, q.limit);
  const chunks = new Map((await fetchChunks(d.db, hits.map((h) => h.id))).map((c) => [c.id, c] as const));
  dl?.check();
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

function sha256Hex(s: string): string {
  return bytesToHex(sha256(new TextEncoder().encode(s)));
}

