/**
 * One document does not fill the head of an answer (issue 36 finding 3): of the chunks of one split document
 * (`meta.document`, a markdown document cut at its headings), at most `docCap` keep their place; the rest move
 * below every other hit, in their order, with scores clamped so the list stays descending. A query that holds the
 * document's whole title asks for that document, and its chunks are not capped. `docCap` 0 turns the rule off.
 */
import type { RankedHit } from "./format-hits.ts";
import type { RecallDeps } from "./recall-deps.ts";
import type { RerankQuery } from "./rerank.ts";

/** Applies the per-document cap to a ranked list (stable; a store without split documents is returned as is). */
export function capPerDocument(d: RecallDeps, rq: RerankQuery, ranked: RankedHit[]): RankedHit[] {
  const cap = d.params.docCap;
  const actors = d.index.actors;
  if (cap <= 0 || !actors.hasDocuments) return ranked;
  const seen = new Map<string, number>();
  const asked = new Map<string, boolean>();
  const kept: RankedHit[] = [];
  const moved: RankedHit[] = [];
  for (const h of ranked) {
    const doc = actors.documentOf(h.id);
    if (doc === undefined) {
      kept.push(h);
      continue;
    }
    const n = (seen.get(doc) ?? 0) + 1;
    seen.set(doc, n);
    if (n <= cap) {
      kept.push(h);
      continue;
    }
    let named = asked.get(doc);
    if (named === undefined) asked.set(doc, (named = titleNamed(d, rq, h.id)));
    (named ? kept : moved).push(h);
  }
  if (!moved.length) return ranked;
  const floor = kept.length ? kept[kept.length - 1].score : 1;
  for (const h of moved) if (h.score > floor) h.score = floor;
  return [...kept, ...moved];
}

/** True when every term of the chunk's title is a query term (the query names the document). */
function titleNamed(d: RecallDeps, rq: RerankQuery, id: number): boolean {
  const title = d.index.lexical.docTerms(id)?.title;
  if (!title || !title.length) return false;
  const ids = new Set(rq.terms.map((t) => t.id));
  for (let i = 0; i < title.length; i++) if (!ids.has(title[i])) return false;
  return true;
}
