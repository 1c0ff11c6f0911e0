/**
 * Phrase matching for the `lex` syntax (SPEC §4.1): which documents contain
 * a term sequence adjacent and in order within one field. Candidates come
 * from the rarest term's postings, are pruned by the other terms' postings,
 * and are then verified against the stored forward sequence. A one-term
 * phrase is a plain postings lookup (so whole-identifier terms, which are not
 * part of the sequence, still match).
 */

import type { InvertedStore } from "./inverted-store.ts";
import { FIELDS } from "./term-postings.ts";

/** Slots of the live documents containing `phrase` (analyzed terms) in some field. */
export function phraseDocs(store: InvertedStore, phrase: string[]): number[] {
  const ids: number[] = [];
  for (const term of phrase) {
    const id = store.termId(term);
    if (id === undefined || store.df(id) === 0) return [];
    ids.push(id);
  }
  if (ids.length === 1) return Array.from(store.list(ids[0]).docs.subarray(0, store.df(ids[0])));
  let rarest = ids[0];
  for (const id of ids) if (store.df(id) < store.df(rarest)) rarest = id;
  const lead = store.list(rarest);
  const out: number[] = [];
  for (let i = 0; i < lead.length; i++) {
    const doc = lead.docs[i];
    let all = true;
    for (const id of ids) {
      if (id !== rarest && store.list(id).find(doc) < 0) {
        all = false;
        break;
      }
    }
    if (all && containsSequence(store, doc, ids)) out.push(doc);
  }
  return out;
}

/** True when some field's part sequence of `doc` contains `ids` contiguously. */
function containsSequence(store: InvertedStore, doc: number, ids: number[]): boolean {
  for (let f = 0; f < FIELDS; f++) {
    const seq = store.sequence(doc, f);
    if (seq === undefined) continue;
    const n = seq.length;
    const m = ids.length;
    for (let i = 0; i + m <= n; i++) {
      let j = 0;
      while (j < m && seq[i + j] === ids[j]) j++;
      if (j === m) return true;
    }
  }
  return false;
}
