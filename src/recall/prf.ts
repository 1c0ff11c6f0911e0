/**
 * Pseudo-relevance feedback (SPEC §1 step 4), gated by the quality
 * assessment: expansion terms are drawn from the top lexical documents
 * (terms in at least two feedback documents, by total frequency, excluding
 * the query's own terms) and searched as a separate, lower-weight lexical
 * pass, so PRF can add candidates without diluting the original query.
 */
import type { Analyzer } from "../lexical/analyzer.ts";
import { normalizeWord } from "../lexical/analyzer.ts";
import { feedbackProse } from "./prf-prose.ts";

/** Why PRF did or did not fire (SPEC §2.3 `prf_decision`). */
export interface PrfDecision {
  fired: boolean;
  reason: string;
  terms?: string[];
}

/** Picks expansion words (surface forms) from feedback texts. */
export function expansionWords(analyzer: Analyzer, queryTerms: readonly string[], feedback: readonly string[], maxTerms: number): string[] {
  const q = new Set(queryTerms);
  const stats = new Map<string, { tf: number; docs: number; surface: string }>();
  for (const text of feedback) {
    const seen = new Set<string>();
    for (const m of feedbackProse(text).matchAll(/[\p{L}][\p{L}\p{N}]{2,}/gu)) {
      const surface = m[0].toLowerCase();
      const term = normalizeWord(surface);
      if (!term || q.has(term) || term.length < 3) continue;
      const s = stats.get(term) ?? { tf: 0, docs: 0, surface };
      s.tf++;
      if (!seen.has(term)) {
        s.docs++;
        seen.add(term);
      }
      stats.set(term, s);
    }
  }
  void analyzer;
  return [...stats.entries()]
    .filter(([, s]) => s.docs >= Math.min(2, feedback.length))
    .sort((a, b) => b[1].docs - a[1].docs || b[1].tf - a[1].tf || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxTerms)
    .map(([, s]) => s.surface);
}
