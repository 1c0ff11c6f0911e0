/**
 * A bounded top-k selection heap over (score, id) pairs with a deterministic
 * order: higher score first, equal scores by id ascending. The root is the
 * worst kept entry, so a candidate is admitted in O(log k) only when it beats
 * it, and `wouldAccept` lets a caller skip expensive checks (such as a filter
 * callback) for candidates that could never make the cut.
 */

/** One selected entry. */
export interface Ranked {
  score: number;
  id: number;
  docNo: number;
}

/** Keeps the k best (score desc, id asc) entries offered. */
export class TopK {
  private readonly scores: Float64Array;
  private readonly ids: Float64Array;
  private readonly docNos: Int32Array;
  private size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.ids = new Float64Array(k);
    this.docNos = new Int32Array(k);
  }

  /** True when an entry with this score and id would be kept. */
  wouldAccept(score: number, id: number): boolean {
    if (this.k === 0) return false;
    if (this.size < this.k) return true;
    return this.worse(this.scores[0], this.ids[0], score, id);
  }

  /** Offers an entry; kept only when it is among the k best so far. */
  offer(score: number, id: number, docNo: number): void {
    if (!this.wouldAccept(score, id)) return;
    if (this.size < this.k) {
      let i = this.size++;
      this.scores[i] = score;
      this.ids[i] = id;
      this.docNos[i] = docNo;
      // sift up: move towards the root while the new entry is worse than its parent
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.worse(this.scores[i], this.ids[i], this.scores[p], this.ids[p])) break;
        this.swap(i, p);
        i = p;
      }
      return;
    }
    this.scores[0] = score;
    this.ids[0] = id;
    this.docNos[0] = docNo;
    this.siftDown(0);
  }

  /** The kept entries, best first. */
  drain(): Ranked[] {
    const out: Ranked[] = [];
    for (let i = 0; i < this.size; i++) out.push({ score: this.scores[i], id: this.ids[i], docNo: this.docNos[i] });
    out.sort((a, b) => (b.score - a.score) || (a.id - b.id));
    return out;
  }

  /** a is worse than b: lower score, or equal score and higher id. */
  private worse(sa: number, ia: number, sb: number, ib: number): boolean {
    return sa < sb || (sa === sb && ia > ib);
  }

  private siftDown(i: number): void {
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && this.worse(this.scores[l], this.ids[l], this.scores[m], this.ids[m])) m = l;
      if (r < n && this.worse(this.scores[r], this.ids[r], this.scores[m], this.ids[m])) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }

  private swap(a: number, b: number): void {
    const s = this.scores[a]; this.scores[a] = this.scores[b]; this.scores[b] = s;
    const d = this.ids[a]; this.ids[a] = this.ids[b]; this.ids[b] = d;
    const n = this.docNos[a]; this.docNos[a] = this.docNos[b]; this.docNos[b] = n;
  }
}
