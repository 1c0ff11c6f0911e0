/**
 * Answer guards (issue 24, issue 36 finding 2): evidence that rules calibrated abstention out (SPEC §1 "Calibrated
 * abstention"). The confidence model is fitted on large stores; in a small one most words of any question are
 * unknown, so it abstains on questions the store does answer. A guard names the evidence that the best hits are an
 * answer; `runRecall` never abstains when one is set (`quality_assessment.answer_guard`).
 *
 * Issue 36 adds two, both for stores of 20 to `SMALL_STORE` chunks, chosen on the dev sets (short memories at 25
 * to 298, the fixture vaults, LoCoMo conversations; `scripts/abstention-by-size.ts`):
 * - `small_store_rare_term_held`: the best lexical hit holds every query term the store knows, those are at least
 *   half the query's terms, and one of them is rare (at most two chunks, and 4% of the store, hold it) — "What do
 *   we know about Theo?";
 * - `small_store_legs_agree`: the best lexical hit holds every known query term (a third of the query at least)
 *   and is also among the nearest 2% of the store in a full vector scan — "Accessibility requirement for colours".
 *
 * and a third for a pattern the dev sets still abstained on (`test/recall/small-store-evidence.test.ts`):
 * - `small_store_vector_standout`: no lexical candidate at all, but the vector leg's nearest chunk stands far out
 *   from the rest of the store.
 */
import type { DocTerms, LexicalHit } from "../lexical/lexical-index.ts";
import type { QualityAssessment } from "./quality.ts";
import type { RecallDeps } from "./recall-deps.ts";
import type { RerankQuery } from "./rerank.ts";

/** Stores up to this many chunks count as small (the small-store guards; a full vector scan costs little there). */
export const SMALL_STORE = 1000;
/**
 * The issue-36 guards need a store of at least this many chunks: in a handful of notes every matching word is
 * "rare" and every note is "near", so they would answer off-topic questions ("Dublin weather" against a note about
 * the Dublin office).
 */
const MIN_CHUNKS = 20;
/** A known term is rare when at most two chunks hold it, and at most 4% of the store. */
const RARE_DF = 2;
const RARE_SHARE = 0.04;
/** The best lexical hit must be among the nearest 2% of the store (one chunk at least) in the full vector scan. */
const AGREE_SHARE = 0.02;
/**
 * The vector-standout guard: the nearest chunk's cosine at least this many standard deviations above the store's
 * mean and this many above the second nearest. Chosen on the dev sets (short memories at 25–298, the fixture vaults,
 * LoCoMo conversations): any pair in 4.0–4.5 × 1.0–1.8 gives the same rows; 3.8 × 1.2 answers an off-topic question.
 */
const STANDOUT_Z = 4.2;
const STANDOUT_GAP = 1.5;
/**
 * …and the nearest chunk must be near at all: a keyboard-mash query can stand out at a cosine of 0.19 in a store of
 * 200 scientific abstracts (scripts/abstention-small-stores.ts); the answer it is for sat at 0.48.
 */
const STANDOUT_MIN_COSINE = 0.3;

/** What the cheap guards read. */
export interface GuardInput {
  limit: number;
  rq: RerankQuery;
  lex: readonly LexicalHit[];
  /** The best lexical hit's idf-weighted coverage of the query (undefined: no lexical hit). */
  topCoverage?: number;
  topDoc?: DocTerms;
  /** Actors the query names (the speaker guard). */
  named: ReadonlyMap<string, number>;
  /** Term ids of the query's acronyms the store knows (small stores only). */
  acronyms: readonly number[];
}

/** The first guard that holds, or undefined. */
export function answerGuard(d: RecallDeps, g: GuardInput): QualityAssessment["answer_guard"] {
  const { rq, lex, topDoc } = g;
  const small = d.index.size <= SMALL_STORE;
  // Issue 24: never abstain when the best lexical hit holds every query term, or its whole title is in the query.
  if (g.topCoverage !== undefined && g.topCoverage >= 1) return "lexical_hit_covers_query";
  if (topDoc && titleInQuery(topDoc.title, rq)) return "title_in_query";
  // In a small store most words of any question are unknown, so the known-term share says little (issue 24):
  // there, a best hit holding every known query term (two at least, half the query or more) is an answer.
  const known = rq.terms.filter((t) => t.id !== undefined);
  const holdsKnown = topDoc !== undefined && known.length > 0 && holdsAll(topDoc, known.map((t) => t.id));
  const n = d.index.lexical.size;
  if (small && holdsKnown && known.length >= 2 && known.length * 2 >= rq.terms.length) return "small_store_known_terms_covered";
  // An acronym is jargon a small store is unlikely to hold by chance, and the static table rarely knows it: a served
  // lexical hit (any of the first `limit`, not only the best — "what is known about AGS" ranks a "known" hit first)
  // holding every acronym of the query the store knows (one at least: an unknown acronym, like any unknown word,
  // says nothing in a small store — "The PRR MDA5 …" against a note spelling out "pattern recognition receptor") is an answer.
  if (small && g.acronyms.length && lex.slice(0, g.limit).some((h) => holdsAll(d.index.lexical.docTerms(h.id), g.acronyms))) return "small_store_acronyms_held";
  // A question naming a person whose turns (or owned records) the store holds is about this store's memory, and a
  // served lexical hit is that person's own chunk: not off-topic. On LoCoMo dev the confidence model abstained on
  // 12 of 883 such answerable questions (1.4%, over the 1% budget), and on 1 of 272 unanswerable ones (issue 24).
  if (g.named.size && lex.slice(0, g.limit).some((h) => g.named.has(d.index.actors.actorOf(h.id) ?? ""))) return "names_store_speaker";
  // Issue 36: one known query term of two ("Theo", "paid"), rare in the store and held by the best hit.
  const rare = Math.min(RARE_DF, Math.floor(RARE_SHARE * n));
  if (small && n >= MIN_CHUNKS && rare >= 1 && holdsKnown && known.length * 2 >= rq.terms.length && known.some((t) => t.idf >= idfOfDf(n, rare))) return "small_store_rare_term_held";
  return undefined;
}

/**
 * Issue 36: the best lexical hit holds every query term the store knows (a third of the query's terms at least)
 * and the vector leg, scanning the whole (small) store, puts it among its `AGREE_RANK` nearest chunks. Run only
 * when recall is about to abstain.
 */
export function legsAgreeOnTop(
  d: RecallDeps, rq: RerankQuery, lex: readonly LexicalHit[], topDoc: DocTerms | undefined, qvec: Float32Array | undefined, filter: (id: number) => boolean,
): boolean {
  const vectors = d.index.vectors;
  if (!qvec || !vectors || !lex.length || !topDoc || d.index.size > SMALL_STORE || d.index.size < MIN_CHUNKS) return false;
  const known = rq.terms.filter((t) => t.id !== undefined);
  if (!known.length || known.length * 3 < rq.terms.length || !holdsAll(topDoc, known.map((t) => t.id))) return false;
  const near = Math.max(1, Math.floor(AGREE_SHARE * d.index.size));
  return vectors.search(qvec, near, filter).some((h) => h.id === lex[0].id);
}

/**
 * Issue 36: the vector leg's nearest chunk stands far out from the rest of the (small) store — its cosine is at
 * least `STANDOUT_Z` standard deviations above the mean over every chunk in scope, and `STANDOUT_GAP` above the
 * second nearest, and at least `STANDOUT_MIN_COSINE` — while the lexical leg found nothing ("When did I hike to
 * Machu Picchu?" → "Did the Inca Trail in 2018"). A high cosine alone is no evidence (off-topic questions reach the same cosines in a small store: "What's
 * the population of Brazil?" 0.49 against 0.48); standing alone is. Run only when recall is about to abstain and
 * the vector leg scanned the store, so `top` is its nearest chunk.
 */
export function vectorStandsOut(
  d: RecallDeps, lex: readonly LexicalHit[], qvec: Float32Array | undefined, top: number | undefined, filter: (id: number) => boolean,
): boolean {
  const vectors = d.index.vectors;
  if (lex.length || !qvec || !vectors || top === undefined || d.index.size > SMALL_STORE || d.index.size < MIN_CHUNKS) return false;
  const all = vectors.search(qvec, d.index.size, filter);
  if (all.length < MIN_CHUNKS || all[0].id !== top) return false;
  let sum = 0;
  for (const h of all) sum += h.score;
  const mean = sum / all.length;
  let sq = 0;
  for (const h of all) sq += (h.score - mean) ** 2;
  const sd = Math.sqrt(sq / all.length);
  return sd > 0 && all[0].score >= STANDOUT_MIN_COSINE && all[0].score - mean >= STANDOUT_Z * sd && all[0].score - all[1].score >= STANDOUT_GAP * sd;
}

/** BM25 idf of a term held by `df` of `n` chunks (the scorer's form): a rarer term has a higher idf. */
function idfOfDf(n: number, df: number): number {
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}

const ACRONYM = /\b[A-Z][A-Z0-9]{1,6}\b/g;

/** Term ids of the query's acronyms (`TNF`, `IL6`: two capitals at least) that the store knows; unknown ones are left out. */
export function acronymTermIds(d: RecallDeps, query: string): number[] {
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
