/**
 * One term's postings list in typed arrays: document numbers kept sorted
 * ascending, with a per-field term frequency (title, content) beside each.
 * Appending a new, higher document number is O(1) amortised; anything else
 * is a binary search plus one `copyWithin`. The list length is the term's
 * document frequency, because an entry exists only while some field holds it.
 */

/** Field slot of the title in per-field arrays. */
export const TITLE = 0;
/** Field slot of the content in per-field arrays. */
export const CONTENT = 1;
/** Number of fields an index keeps. */
export const FIELDS = 2;

const TF_MAX = 0xffff;

/** Sorted postings of one term. */
export class TermPostings {
  /** Document numbers, ascending; valid up to `length`. */
  docs: Uint32Array;
  /**
   * Term frequency per entry and field: `tfs[2 * i + field]`. One byte while every count fits, as in a list loaded
   * from a snapshot (issue 25), widened to Uint16 before a count past 255 is written. Own lists start narrow too
   * (issue 20: at a million chunks a node holds ~120M postings, and two bytes a posting are ~240 MB).
   */
  tfs: Uint16Array | Uint8Array;
  /** Number of documents holding the term (its document frequency). */
  length = 0;

  constructor(capacity = 2) {
    this.docs = new Uint32Array(capacity);
    this.tfs = new Uint8Array(capacity * FIELDS);
  }

  /**
   * A full list over caller-built arrays (`docs` holds exactly `docs.length` entries), e.g. views into one
   * shared buffer at load; the first later insert copies them into arrays of its own.
   */
  static over(docs: Uint32Array, tfs: Uint16Array | Uint8Array): TermPostings {
    const p = new TermPostings(0);
    p.docs = docs;
    p.tfs = tfs;
    p.length = docs.length;
    return p;
  }

  /** Index of `doc` in the list, or -1. */
  find(doc: number): number {
    let lo = 0;
    let hi = this.length - 1;
    const docs = this.docs;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = docs[mid];
      if (v === doc) return mid;
      if (v < doc) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** Adds `count` occurrences of the term in `field` of `doc`. */
  add(doc: number, field: number, count: number): void {
    const n = this.length;
    let i: number;
    if (n > 0 && this.docs[n - 1] === doc) i = n - 1;
    else if (n === 0 || this.docs[n - 1] < doc) i = this.insertAt(n, doc);
    else {
      i = this.find(doc);
      if (i < 0) i = this.insertAt(this.lowerBound(doc), doc);
    }
    const slot = i * FIELDS + field;
    const tf = Math.min(TF_MAX, this.tfs[slot] + count);
    if (tf > 0xff && this.tfs.BYTES_PER_ELEMENT === 1) this.tfs = Uint16Array.from(this.tfs);
    this.tfs[slot] = tf;
  }

  /** Clears `field` of `doc`; drops the entry when no field holds the term any more. */
  clearField(doc: number, field: number): void {
    const i = this.find(doc);
    if (i < 0) return;
    this.tfs[i * FIELDS + field] = 0;
    for (let f = 0; f < FIELDS; f++) if (this.tfs[i * FIELDS + f] !== 0) return;
    this.removeAt(i);
  }

  private lowerBound(doc: number): number {
    let lo = 0;
    let hi = this.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.docs[mid] < doc) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private insertAt(i: number, doc: number): number {
    if (this.length === this.docs.length) this.grow();
    if (i < this.length) {
      this.docs.copyWithin(i + 1, i, this.length);
      this.tfs.copyWithin((i + 1) * FIELDS, i * FIELDS, this.length * FIELDS);
    }
    this.docs[i] = doc;
    for (let f = 0; f < FIELDS; f++) this.tfs[i * FIELDS + f] = 0;
    this.length++;
    return i;
  }

  private removeAt(i: number): void {
    this.docs.copyWithin(i, i + 1, this.length);
    this.tfs.copyWithin(i * FIELDS, (i + 1) * FIELDS, this.length * FIELDS);
    this.length--;
  }

  /**
   * Grows by half (not double): a list is then on average ~80% full instead of ~70%, which at a million chunks is
   * hundreds of MB of slack fewer for an amortised copy that stays O(1) a posting (issue 20, node RSS).
   */
  private grow(): void {
    const cap = Math.max(4, this.docs.length + (this.docs.length >>> 1));
    const docs = new Uint32Array(cap);
    docs.set(this.docs);
    const tfs = this.tfs.BYTES_PER_ELEMENT === 1 ? new Uint8Array(cap * FIELDS) : new Uint16Array(cap * FIELDS);
    tfs.set(this.tfs);
    this.docs = docs;
    this.tfs = tfs;
  }
}
