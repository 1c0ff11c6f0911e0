/**
 * Speaker and actor labels for speaker-aware recall (issue 24 item 2): each
 * chunk's speaker (a conversation turn's `meta.conversation.speaker`) or,
 * for other memory, its owner (`meta.owner`, the UMP scope owner), and the
 * day spans it is about (its session day and the relative dates resolved
 * at ingest). A query that names a labelled person gives that person's
 * chunks the reranker's `speaker` feature (the question's subject when it
 * names two people: issue 36 finding 4, `named`); a query date that
 * overlaps a chunk's spans gives it the `date` feature.
 */
import type { Analyzer } from "../lexical/analyzer.ts";
import type { DaySpan } from "../conversation/dates.ts";

/** What a chunk's meta says about who and when. */
export interface ActorLabel {
  /** Speaker or owner as written. */
  actor?: string;
  /** Days the chunk is about. */
  spans?: DaySpan[];
  /** The split document the chunk is part of (`meta.document.id`), for the per-document cap (issue 36). */
  document?: string;
}

/** Reads the label from a chunk's meta (absent fields: no label). */
export function actorLabelOf(meta: Record<string, unknown> | undefined): ActorLabel | undefined {
  if (!meta) return undefined;
  const conv = meta.conversation as Record<string, unknown> | undefined;
  const out: ActorLabel = {};
  const owner = typeof meta.owner === "string" ? ownerName(meta.owner) : undefined;
  const who = typeof conv?.speaker === "string" ? conv.speaker : owner;
  if (who !== undefined && who.trim() !== "") out.actor = who.trim();
  const spans: DaySpan[] = [];
  if (typeof conv?.day === "string") spans.push({ from: conv.day, to: conv.day });
  if (Array.isArray(conv?.dates)) {
    for (const d of conv.dates as { from?: unknown; to?: unknown }[]) {
      if (typeof d?.from === "string" && typeof d?.to === "string") spans.push({ from: d.from, to: d.to });
    }
  }
  if (spans.length) out.spans = spans;
  const doc = (meta.document as { id?: unknown } | undefined)?.id;
  if (typeof doc === "string" && doc !== "") out.document = doc;
  return out.actor !== undefined || out.spans !== undefined || out.document !== undefined ? out : undefined;
}

/**
 * The name a query could use for an owner URI: its last segment (`user:alice` → `alice`,
 * `did:web:example.com:users:alice` → `alice`). A DID whose method-specific identifier is one segment
 * (`did:key:z6Mk…`, `did:web:example.com`, Cairn's `did:cairn:local` for records written without an identity)
 * names a key, a host or nobody, never a person: no name (issue 36 — "local" in a query lifted every UMP record).
 */
function ownerName(owner: string): string | undefined {
  const did = /^did:[a-z0-9]+:(.*)$/i.exec(owner);
  if (did && !did[1].includes(":")) return undefined;
  return owner.split(/[:/]/).pop();
}

/** Per-chunk actor labels with a term → actor lookup for query matching. */
export class ActorLabels {
  private readonly byId = new Map<number, { key?: string; spans?: DaySpan[]; document?: string }>();
  /** Chunks with a document label (the cap costs nothing in a store without split documents). */
  private documents = 0;
  /** Analyzed name term → actor key → number of chunks. */
  private readonly byTerm = new Map<string, Map<string, number>>();
  private readonly termsOf = new Map<string, string[]>();

  constructor(private readonly analyzer: Analyzer) {}

  /** Sets (or replaces) a chunk's label. */
  set(id: number, label: ActorLabel | undefined): void {
    this.delete(id);
    if (!label) return;
    const key = label.actor?.toLowerCase();
    this.byId.set(id, { key, spans: label.spans, document: label.document });
    if (label.document !== undefined) this.documents++;
    if (key === undefined) return;
    let terms = this.termsOf.get(key);
    if (!terms) this.termsOf.set(key, (terms = [...new Set(this.analyzer.analyze(label.actor!).sequence)]));
    for (const t of terms) {
      const m = this.byTerm.get(t) ?? new Map<string, number>();
      m.set(key, (m.get(key) ?? 0) + 1);
      this.byTerm.set(t, m);
    }
  }

  /** Forgets a chunk. */
  delete(id: number): void {
    const old = this.byId.get(id);
    if (!old) return;
    this.byId.delete(id);
    if (old.document !== undefined) this.documents--;
    if (old.key === undefined) return;
    for (const t of this.termsOf.get(old.key) ?? []) {
      const m = this.byTerm.get(t);
      if (!m) continue;
      const n = (m.get(old.key) ?? 0) - 1;
      if (n > 0) m.set(old.key, n);
      else m.delete(old.key);
      if (!m.size) this.byTerm.delete(t);
    }
  }

  /**
   * The actors the query names, each with the weight of its chunks' `speaker` feature (empty: the query names none).
   * The main one weighs 1: the first labelled name of `lead` (the question's grammatical subject, when the caller
   * found one), else the first labelled name of the query, which speaks the evidence in most LoCoMo questions.
   * Every other labelled name weighs `others` (issue 36 finding 4).
   */
  named(querySequence: readonly string[], others = 0, lead: readonly string[] = []): ReadonlyMap<string, number> {
    const out = new Map<string, number>();
    for (const t of [...lead, ...querySequence]) {
      const m = this.byTerm.get(t);
      if (!m || !m.size) continue;
      const w = out.size === 0 ? 1 : others;
      for (const k of m.keys()) if (!out.has(k)) out.set(k, w);
      if (others <= 0) break;
    }
    return out;
  }

  /** The chunk's actor key. */
  actorOf(id: number): string | undefined {
    return this.byId.get(id)?.key;
  }

  /** The chunk's day spans. */
  spansOf(id: number): readonly DaySpan[] | undefined {
    return this.byId.get(id)?.spans;
  }

  /** The split document the chunk is part of. */
  documentOf(id: number): string | undefined {
    return this.byId.get(id)?.document;
  }

  /** True when some chunk is part of a split document. */
  get hasDocuments(): boolean {
    return this.documents > 0;
  }

  /** True when no chunk has a label (the common case for document stores: the features cost nothing). */
  get empty(): boolean {
    return this.byId.size === 0;
  }
}
