/**
 * Default BM25 parameters of the lexical leg and their validation. The
 * defaults were tuned for the served recall pipeline (with the reranker) on
 * SciFact train and LoCoMo dev by `scripts/tune-recall.ts`; the lexical-leg-only
 * grid of `scripts/eval-lexical.ts` is in `src/lexical/README.md`.
 */

import { MemoryError } from "../core/errors.ts";
import type { Bm25Params } from "./bm25-scorer.ts";

/** Parameters used when none are given. */
export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.4, titleWeight: 2 });

/** Fills defaults and checks ranges: k1 ≥ 0, 0 ≤ b ≤ 1, titleWeight ≥ 0, all finite. */
export function resolveBm25Params(given: Partial<Bm25Params> = {}): Bm25Params {
  const p = { ...DEFAULT_BM25_PARAMS, ...stripUndefined(given) };
  const ok = Number.isFinite(p.k1) && p.k1 >= 0 && Number.isFinite(p.b) && p.b >= 0 && p.b <= 1 &&
    Number.isFinite(p.titleWeight) && p.titleWeight >= 0;
  if (!ok) throw new MemoryError("internal_error", "BM25 parameters out of range", { k1: p.k1, b: p.b, titleWeight: p.titleWeight });
  return p;
}

function stripUndefined(given: Partial<Bm25Params>): Partial<Bm25Params> {
  const out: Partial<Bm25Params> = {};
  if (given.k1 !== undefined) out.k1 = given.k1;
  if (given.b !== undefined) out.b = given.b;
  if (given.titleWeight !== undefined) out.titleWeight = given.titleWeight;
  return out;
}
