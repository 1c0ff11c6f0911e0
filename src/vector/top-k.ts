/**
 * A bounded selection of the best `k` scored ids, used by the exact-scan
 * vector index. Order is total and deterministic (SPEC §1: retrieval is
 * deterministic): higher score first, and equal scores by id ascending.
 */

/** One search result: an entry id and its similarity score. */
export interface ScoredId {
  id: number;
  score: number;
}

/** Keeps the `k` best pairs pushed into it in a binary min-heap whose root is the worst kept pair. */
export class TopK {
  readonly #k: number;
  readonly #ids: number[] = [];
  readonly #scores: number[] = [];

  /** A collector for at most `k` pairs (`k` ≤ 0 keeps none). */
  constructor(k: number) {
    this.#k = Math.max(0, Math.floor(k));
  }

  /** Offers one pair; kept only while it ranks among the best `k` seen so far. */
  push(id: number, score: number): void {
    const ids = this.#ids;
    const scores = this.#scores;
    if (ids.length < this.#k) {
      ids.push(id);
      scores.push(score);
      this.#siftUp(ids.length - 1);
    } else if (this.#k > 0 && worse(scores[0], ids[0], score, id)) {
      ids[0] = id;
      scores[0] = score;
      this.#siftDown(0);
    }
  }

  /** Whether `push(id, score)` would keep the pair (lets a caller skip costly checks for pairs that cannot enter). */
  accepts(id: number, score: number): boolean {
    return this.#ids.length < this.#k || (this.#k > 0 && worse(this.#scores[0], this.#ids[0], score, id));
  }

  /** The kept pairs, best first. */
  sorted(): ScoredId[] {
    const out = this.#ids.map((id, i) => ({ id, score: this.#scores[i] }));
    return out.sort((a, b) => b.score - a.score || a.id - b.id);
  }

  #siftUp(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(this.#scores[i], this.#ids[i], this.#scores[parent], this.#ids[parent])) return;
      this.#swap(i, parent);
      i = parent;
    }
  }

  #siftDown(i: number): void {
    const n = this.#ids.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < n && worse(this.#scores[l], this.#ids[l], this.#scores[worst], this.#ids[worst])) worst = l;
      if (r < n && worse(this.#scores[r], this.#ids[r], this.#scores[worst], this.#ids[worst])) worst = r;
      if (worst === i) return;
      this.#swap(i, worst);
      i = worst;
    }
  }

  #swap(a: number, b: number): void {
    [this.#ids[a], this.#ids[b]] = [this.#ids[b], this.#ids[a]];
    [this.#scores[a], this.#scores[b]] = [this.#scores[b], this.#scores[a]];
  }
}

/** True when pair (sa, ia) ranks below pair (sb, ib). */
function worse(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}
