/**
 * The inverted store both lexical implementations share: vocabulary, postings
 * per term (a loaded snapshot's in shared buffers, `TermPostings` once written or read), per-document field lengths, and a forward list of
 * term ids per document field (part sequence first, then whole-identifier
 * extras). The forward list makes removal exact (every posting of the
 * document is found again without re-analysing its text), lets quoted phrases
 * be verified by adjacency, and is what gets persisted: postings are rebuilt
 * from it on load. Forward lists are kept as LEB128 varints (`varint.ts`; ~1.6 bytes per
 * token instead of 4, and a loaded snapshot's bytes are used in place), decoded when read.
 * They live in byte pages addressed by (page, start) per document field (issue 25): a typed-array
 * object per field cost ~80–200 bytes of headers, two per document; now 12 bytes. A loaded snapshot is
 * one page; later adds append to pages of their own (4 KiB doubling to 1 MiB); a page is released once
 * every list in it was removed. Documents are addressed by a caller-chosen slot number
 * (`docNo`) and carry an external numeric id.
 */

import type { Analysis } from "./analyzer.ts";
import { CONTENT, FIELDS, TermPostings, TITLE } from "./term-postings.ts";
import { decodeVarintPrefix, varintSize, writeVarints } from "./varint.ts";

/** Postings filled at load into shared buffers (see `BuiltPostings` in `bulk-build.ts`). */
export interface LoadedPostings {
  /** Number of terms covered (term ids 0 .. terms − 1). */
  terms: number;
  offset: Uint32Array;
  docs: Uint32Array;
  /** Per entry and field, one byte each; a term with a count above 255 has its own Uint16 list in `wide`. */
  tfs: Uint8Array;
  wide: Map<number, Uint16Array>;
}

const FIRST_PAGE = 4096;
const MAX_PAGE = 1 << 20;

/** Vocabulary, postings and per-document statistics of a lexical index. */
export class InvertedStore {
  /** Term → term id. */
  readonly vocab = new Map<string, number>();
  /** Term id → term. */
  readonly terms: string[] = [];
  /**
   * Term id → postings of its own (written since load) or materialised on first access. A loaded snapshot's
   * postings stay in the shared buffers of `base` (issue 25: no object or view per term, ~230 bytes a term,
   * −10 MB at 50k); a term gets a `TermPostings` over its slice when a query or a write first reaches it.
   */
  private readonly own: (TermPostings | undefined)[] = [];
  /** The loaded postings (`bulk-build.ts`): term t's entries are offset[t] .. offset[t + 1] − 1. */
  private base: LoadedPostings | undefined;
  /** Number of live documents (BM25's N). */
  liveCount = 0;
  /** Sum of field lengths over live documents, per field. */
  readonly sumLen: number[] = new Array(FIELDS).fill(0);
  /** One past the highest slot ever used. */
  slotCount = 0;
  /** Bumped by every change, so derived caches (length norms) know when to refresh. */
  revision = 0;
  /** Slot → external id. */
  extIds = new Float64Array(16);
  /** Slot → bit set of present fields (0 = slot is free). */
  mask = new Uint8Array(16);
  /** `slot * FIELDS + field` → number of terms (sequence + extras). */
  fieldLen = new Uint32Array(16 * FIELDS);
  /** `slot * FIELDS + field` → length of the part sequence at the start of the forward list. */
  seqLen = new Uint32Array(16 * FIELDS);
  /** `slot * FIELDS + field` → page, start and byte length of its forward list (LEB128 varints, `fieldLen` of them). */
  fwdPage = new Uint32Array(16 * FIELDS);
  fwdStart = new Uint32Array(16 * FIELDS);
  fwdSize = new Uint32Array(16 * FIELDS);
  /** Forward-list pages (undefined once released) and their live bytes. */
  private pages: (Uint8Array | undefined)[] = [];
  private pageLive: number[] = [];
  /** The page adds append to (-1: none yet; a loaded snapshot's page is never written). */
  private tail = -1;
  private tailUsed = 0;

  /** True when the slot holds a live document. */
  isLive(docNo: number): boolean {
    return docNo < this.slotCount && this.mask[docNo] !== 0;
  }

  /** Term id of `term`, or undefined when the index has never seen it. */
  termId(term: string): number | undefined {
    return this.vocab.get(term);
  }

  /**
   * Term id of `term` when a live document holds it. A removed document's terms stay in the vocabulary until the
   * next load, which drops them: "known" must not depend on that, or answers change across a restart (issue 36).
   */
  liveTermId(term: string): number | undefined {
    const id = this.vocab.get(term);
    return id === undefined || this.df(id) === 0 ? undefined : id;
  }

  /** Term t's postings (t must be a term id of this store). */
  list(t: number): TermPostings {
    let p = this.own[t];
    if (p === undefined) {
      const b = this.base!;
      const from = b.offset[t];
      const to = b.offset[t + 1];
      p = TermPostings.over(b.docs.subarray(from, to), b.wide.get(t) ?? b.tfs.subarray(from * FIELDS, to * FIELDS));
      this.own[t] = p;
    }
    return p;
  }

  /** Document frequency of term id t (its postings length), without materialising a loaded list. */
  df(t: number): number {
    const p = this.own[t];
    if (p !== undefined) return p.length;
    const b = this.base;
    return b !== undefined && t < b.terms ? b.offset[t + 1] - b.offset[t] : 0;
  }

  /**
   * Adopts loaded postings for the first `terms` term ids (bulk loading, right after interning them). Each
   * `wide` list must hold exactly its term's entries (checked by the caller).
   */
  adoptPostings(postings: LoadedPostings): void {
    this.base = postings;
    this.own.length = postings.terms;
  }

  /** BM25 idf of an analyzed term, ln(1 + (N − df + 0.5) / (df + 0.5)), the scorer's form (df = 0 for an unseen term). */
  idf(term: string): number {
    const id = this.vocab.get(term);
    const df = id === undefined ? 0 : this.df(id);
    return Math.log(1 + (this.liveCount - df + 0.5) / (df + 0.5));
  }

  /** The analyzed phrase sequence of one field of a live document, as term ids (a view, not a copy). */
  sequence(docNo: number, field: number): Uint32Array | undefined {
    if (!this.isLive(docNo)) return undefined;
    const at = docNo * FIELDS + field;
    if ((this.mask[docNo] & (1 << field)) === 0) return undefined;
    return decodeVarintPrefix(this.pages[this.fwdPage[at]]!, this.seqLen[at], this.fwdStart[at]);
  }

  /** The whole forward list (sequence, then extras) at `slot * FIELDS + field`, decoded. */
  fwdIds(at: number): Uint32Array | undefined {
    const docNo = (at - (at % FIELDS)) / FIELDS;
    if (docNo >= this.slotCount || (this.mask[docNo] & (1 << (at % FIELDS))) === 0) return undefined;
    return decodeVarintPrefix(this.pages[this.fwdPage[at]]!, this.fieldLen[at], this.fwdStart[at]);
  }

  /** Adopts `bytes` (never written to) as a page of forward lists; returns its page number (bulk loading). */
  adoptPage(bytes: Uint8Array): number {
    this.pages.push(bytes);
    this.pageLive.push(0);
    return this.pages.length - 1;
  }

  /** Points a field's forward list at `page` bytes [start, end) (bulk loading; the mask bit is the caller's). */
  placeFwd(at: number, page: number, start: number, end: number): void {
    this.fwdPage[at] = page;
    this.fwdStart[at] = start;
    this.fwdSize[at] = end - start;
    this.pageLive[page] += end - start;
  }

  /** Indexes one analyzed field of a document, replacing that field if present. */
  addField(docNo: number, extId: number, field: number, analysis: Analysis): void {
    const { sequence, extras } = analysis;
    const ids = new Uint32Array(sequence.length + extras.length);
    for (let i = 0; i < sequence.length; i++) ids[i] = this.intern(sequence[i]);
    for (let i = 0; i < extras.length; i++) ids[sequence.length + i] = this.intern(extras[i]);
    this.addFieldIds(docNo, extId, field, ids, sequence.length);
  }

  /** Indexes one field given as term ids (the first `seq` form the phrase sequence). */
  addFieldIds(docNo: number, extId: number, field: number, ids: Uint32Array, seq: number): void {
    this.ensureSlot(docNo);
    this.revision++;
    const bit = 1 << field;
    if (this.mask[docNo] & bit) this.removeField(docNo, field);
    if (this.mask[docNo] === 0) this.liveCount++;
    this.mask[docNo] |= bit;
    this.extIds[docNo] = extId;
    const at = docNo * FIELDS + field;
    this.appendFwd(at, ids);
    this.fieldLen[at] = ids.length;
    this.seqLen[at] = seq;
    this.sumLen[field] += ids.length;
    // Count each distinct term once per field: sort a copy, then run-length.
    const sorted = ids.slice().sort();
    for (let i = 0; i < sorted.length; ) {
      let j = i + 1;
      while (j < sorted.length && sorted[j] === sorted[i]) j++;
      this.list(sorted[i]).add(docNo, field, j - i);
      i = j;
    }
  }

  /** Removes one field of a document; the slot is freed once no field is left. */
  removeField(docNo: number, field: number): void {
    if (!this.isLive(docNo)) return;
    const bit = 1 << field;
    if ((this.mask[docNo] & bit) === 0) return;
    this.revision++;
    const at = docNo * FIELDS + field;
    const ids = this.fwdIds(at)!;
    const seen = new Set<number>();
    for (const id of ids) {
      if (seen.has(id)) continue;
      seen.add(id);
      this.list(id).clearField(docNo, field);
    }
    this.sumLen[field] -= this.fieldLen[at];
    this.releaseFwd(at);
    this.fieldLen[at] = 0;
    this.seqLen[at] = 0;
    this.mask[docNo] &= ~bit;
    if (this.mask[docNo] === 0) this.liveCount--;
  }

  /** Removes every field of a document. */
  removeDoc(docNo: number): void {
    for (let f = 0; f < FIELDS; f++) this.removeField(docNo, f);
  }

  /** Average length of a field over live documents (0 when empty). */
  avgLen(field: number): number {
    return this.liveCount === 0 ? 0 : this.sumLen[field] / this.liveCount;
  }

  /** Term id of `term`, adding it to the vocabulary when new. */
  intern(term: string): number {
    let id = this.vocab.get(term);
    if (id === undefined) {
      id = this.terms.length;
      this.vocab.set(term, id);
      this.terms.push(term);
      // A term the loaded postings cover starts empty there; any other gets a list of its own.
      if (this.base === undefined || id >= this.base.terms) this.own[id] = new TermPostings();
    }
    return id;
  }

  /** Makes room for slots below `slotCount` (used by bulk loading). */
  reserve(slotCount: number): void {
    if (slotCount > 0) this.ensureSlot(slotCount - 1);
  }

  /** Writes a field's forward list at the end of the tail page (a new page when it does not fit). */
  private appendFwd(at: number, ids: Uint32Array): void {
    const size = varintSize(ids);
    let page = this.tail >= 0 ? this.pages[this.tail] : undefined;
    if (page === undefined || this.tailUsed + size > page.length) {
      const prev = this.tail >= 0 ? this.pages[this.tail]?.length ?? 0 : 0;
      page = new Uint8Array(Math.max(size, Math.min(MAX_PAGE, Math.max(FIRST_PAGE, 2 * prev))));
      if (this.tail >= 0 && this.pageLive[this.tail] === 0) this.pages[this.tail] = undefined;
      this.tail = this.adoptPage(page);
      this.tailUsed = 0;
    }
    writeVarints(ids, page, this.tailUsed);
    this.fwdPage[at] = this.tail;
    this.fwdStart[at] = this.tailUsed;
    this.fwdSize[at] = size;
    this.pageLive[this.tail] += size;
    this.tailUsed += size;
  }

  /** Forgets a field's forward list; its page goes once nothing in it is live (the tail page stays for appends). */
  private releaseFwd(at: number): void {
    const p = this.fwdPage[at];
    this.pageLive[p] -= this.fwdSize[at];
    if (this.pageLive[p] === 0 && p !== this.tail) this.pages[p] = undefined;
    this.fwdPage[at] = 0;
    this.fwdStart[at] = 0;
    this.fwdSize[at] = 0;
  }

  private ensureSlot(docNo: number): void {
    if (docNo >= this.mask.length) {
      let cap = this.mask.length;
      while (cap <= docNo) cap *= 2;
      this.extIds = grow(this.extIds, new Float64Array(cap));
      this.mask = grow(this.mask, new Uint8Array(cap));
      this.fieldLen = grow(this.fieldLen, new Uint32Array(cap * FIELDS));
      this.seqLen = grow(this.seqLen, new Uint32Array(cap * FIELDS));
      this.fwdPage = grow(this.fwdPage, new Uint32Array(cap * FIELDS));
      this.fwdStart = grow(this.fwdStart, new Uint32Array(cap * FIELDS));
      this.fwdSize = grow(this.fwdSize, new Uint32Array(cap * FIELDS));
    }
    if (docNo >= this.slotCount) this.slotCount = docNo + 1;
  }
}

function grow<T extends Float64Array | Uint8Array | Uint32Array>(from: T, to: T): T {
  to.set(from as never);
  return to;
}

const EMPTY = new Uint32Array(0);

/** Both analyzed fields of a live slot (empty arrays for absent fields); undefined for a free slot. */
export function docTermsOf(store: InvertedStore, docNo: number): { title: Uint32Array; content: Uint32Array } | undefined {
  if (!store.isLive(docNo)) return undefined;
  return { title: store.sequence(docNo, TITLE) ?? EMPTY, content: store.sequence(docNo, CONTENT) ?? EMPTY };
}
