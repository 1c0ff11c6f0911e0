/**
 * Builds served `RecallHit`s (SPEC §2.2, §2.3): every emitted text goes
 * through the read seam (SPEC §1 Trust rules), every hit carries
 * `untrusted: true`, optional fields are omitted, never null.
 */
import type { Chunk } from "../core/types.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import { bestWindow, highlights } from "./snippet.ts";

/** Everything recall knows about one ranked candidate. */
export interface RankedHit {
  id: number;
  score: number;
  fused: number;
  ranks: { vector?: number; fts?: number; graph?: number; prf?: number };
  rerank?: { score: number; truncated: boolean; features?: Record<string, number> };
  conflict?: boolean;
  decayed?: boolean;
  hops?: unknown[];
}

/** Options of formatting. */
export interface FormatOptions {
  provenance: boolean;
  piiRead: boolean;
  queryTerms: ReadonlySet<string>;
  contentWindow: number;
  snippetWindow: number;
  strategy: string;
  quality: Record<string, unknown>;
  prfDecision: Record<string, unknown>;
}

/**
 * The retrieval path of a hit (SPEC §2.2 `source`): `both` when the vector leg and a lexical pass found it, else the
 * one first-pass leg that did. A hit the first passes missed is `graph` when the graph leg found it — even if the
 * PRF-expanded lexical pass (which follows the first pass) also did — and `fts` only when the expanded pass alone
 * found it. Provenance carries every leg's rank (`prf_rank` for the expanded pass), so the label always agrees with
 * a rank the hit shows.
 */
export function legOf(r: RankedHit["ranks"]): "vector" | "fts" | "both" | "graph" {
  const v = r.vector !== undefined, f = r.fts !== undefined || r.prf !== undefined;
  if (v && f) return "both";
  if (v) return "vector";
  if (r.fts !== undefined) return "fts";
  if (r.graph !== undefined) return "graph";
  return "fts";
}

/** The leg that ranked the hit best (ties: both); undefined for graph-only hits. */
function topMode(r: RankedHit["ranks"]): "vector" | "fts" | "both" | undefined {
  const f = r.fts ?? r.prf;
  if (r.vector === undefined) return f === undefined ? undefined : "fts";
  if (f === undefined) return "vector";
  return r.vector < f ? "vector" : f < r.vector ? "fts" : "both";
}

function relevanceOf(score: number): "high" | "medium" | "low" {
  return score >= 0.5 ? "high" : score >= 0.25 ? "medium" : "low";
}

/** Formats one hit. */
export function formatHit(h: RankedHit, c: Chunk, o: FormatOptions): Record<string, unknown> {
  const seam = (s: string) => sanitizeForRead(s, { piiRead: o.piiRead });
  const win = bestWindow(c.content, o.queryTerms, o.contentWindow);
  const snip = bestWindow(c.content, o.queryTerms, o.snippetWindow);
  const content = seam(win.text);
  const snippet = seam(snip.text);
  const hit: Record<string, unknown> = { id: c.id };
  if (c.title !== undefined) hit.title = seam(c.title);
  hit.content = content;
  hit.score = h.score;
  hit.untrusted = true;
  hit.flagged = c.flagged;
  hit.snippet = snippet;
  const evidence: Record<string, unknown> = {
    snippet, line_start: snip.lineStart, line_end: snip.lineEnd, highlights: highlights(snippet, o.queryTerms),
  };
  const headingPath = c.meta?.heading_path;
  if (Array.isArray(headingPath) && headingPath.length) evidence.heading_path = headingPath.map((x) => seam(String(x)));
  const baseLine = typeof c.meta?.line_start === "number" ? (c.meta.line_start as number) - 1 : 0;
  if (baseLine > 0) {
    evidence.line_start = snip.lineStart + baseLine;
    evidence.line_end = snip.lineEnd + baseLine;
  }
  if (typeof c.meta?.source_link === "string") evidence.source_link = seam(c.meta.source_link as string);
  hit.evidence = evidence;
  // Issue 22 item 7: `relevance` is how well this query matched (from the fused score); `confidence` is the label
  // stored with the entry (SPEC §2.1), unchanged by the query. docs/recall.md "What a hit says".
  hit.relevance = relevanceOf(h.score);
  hit.confidence = c.confidence;
  if (c.assertionKind !== undefined) hit.assertion_kind = c.assertionKind;
  if (h.conflict) hit.conflict = true;
  if (h.decayed) hit.decayed = true;
  hit.ingest_kind = c.source;
  for (const [k, v] of [["memory_kind", c.memoryKind], ["lawful_basis", c.lawfulBasis], ["region", c.region], ["origin", c.origin], ["authority", c.authority]] as const) {
    if (v !== undefined) hit[k] = v;
  }
  if (o.provenance) {
    hit.domain = c.domain;
    hit.source = legOf(h.ranks);
    const p: Record<string, unknown> = {};
    if (h.ranks.vector !== undefined) p.vector_rank = h.ranks.vector;
    if (h.ranks.fts !== undefined) p.fts_rank = h.ranks.fts;
    if (h.ranks.prf !== undefined) p.prf_rank = h.ranks.prf;
    if (h.ranks.graph !== undefined) p.graph_rank = h.ranks.graph;
    p.fused_score = h.fused;
    if (h.rerank) {
      p.rerank_score = h.rerank.score;
      if (h.rerank.truncated) p.rerank_truncated = true;
    }
    p.prf_expanded = h.ranks.prf !== undefined && h.ranks.fts === undefined && h.ranks.vector === undefined;
    const mode = topMode(h.ranks);
    if (mode) p.top_retrieval_mode = mode;
    p.retrieval_strategy = o.strategy;
    p.quality_assessment = o.quality;
    p.prf_decision = o.prfDecision;
    if (h.hops?.length) p.graph_hops = h.hops;
    hit.provenance = p;
  }
  return hit;
}
