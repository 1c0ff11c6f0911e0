/**
 * Speaker and actor labels for speaker-aware recall (issue 24 item 2): each
 * chunk's speaker (a conversation turn's `meta.conversation.speaker`) or,
 * for other memory, its owner (`meta.owner`, the UMP scope owner), and the
 * day spans it is about (its session day and the relative dates resolved
 * at ingest). A query that names a labelled person gives that person's
 * chunks the reranker's `speaker` feature (every person it names: issue 36
 * finding 4, `named`); a query date that
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
}

/** Reads the label from a chunk's meta (absent fields: no label). */
export function actorLabelOf(meta: Record<string, unknown> | undefined): ActorLabel | undefined {
  if (!meta) return undefined;
  const conv = meta.conversation as Record<string, unknown> | undefined;
  const out: ActorLabel = {};
  // An owner is often a URI (`did:key:z6Mk…`, `user:alice`): its last segment is the name a query could use.
  const owner = typeof meta.owner === "string" ? meta.owner.split(/[:/]/).pop() : undefined;
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
  return out.actor !== undefined || out.spans !== undefined ? out : undefined;
}

/** Per-chunk actor labels with a term → actor lookup for query matching. */
export class ActorLabels {
  private readonly byId = new Map<number, { key?: string; spans?: DaySpan[] }>();
  /** Analyzed name term → actor key → number of chunks. */
  private readonly byTerm = new Map<string, Map<string, number>>();
  private readonly termsOf = new Map<string, string[]>();

  constructor(private readonly analyzer: Analyzer) {}

  /** Sets (or replaces) a chunk's label. */
  set(id: number, label: ActorLabel | undefined): void {
    this.delete(id);
    if (!label) return;
    const key = label.actor?.toLowerCase();
    this.byId.set(id, { key, spans: label.spans });
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
   * The actors the query names (empty: none). `first`: those of the first labelled name only. `all` (served): of
   * every labelled name — a question naming two people ("According to Alice, what does Bob help her with?") does
   * not say whose turn holds the evidence, so both count and neither is lifted over the other (issue 36).
   */
  named(querySequence: readonly string[], which: "first" | "all" = "all"): ReadonlySet<string> {
    const out = new Set<string>();
    for (const t of querySequence) {
      const m = this.byTerm.get(t);
      if (!m || !m.size) continue;
      for (const k of m.keys()) out.add(k);
      if (which === "first") break;
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

  /** True when no chunk has a label (the common case for document stores: the features cost nothing). */
  get empty(): boolean {
    return this.byId.size === 0;
  }
}
