/**
 * The evaluation sets `cairn eval` scores (SPEC §4.12), each as stores to fill through the door a user would use
 * and the judged queries to ask them (issue 36): a BEIR corpus through the bulk ingest door (or the memory door),
 * LoCoMo conversations through `POST /ingest/conversation` (one store each), and a markdown vault through
 * `POST /ingest/markdown` (heading-aware chunks; a chunk counts as its note). Queries marked `unanswerable`
 * (LoCoMo category 5, a set's off-topic and nonsense queries) are scored for abstention only. No I/O here.
 */
import type { BeirSet } from "./beir.ts";
import { LOCOMO_ADVERSARIAL, type LocomoConversation } from "./locomo.ts";
import { binaryJudgments, type Judgments } from "./metrics.ts";
import type { EvalStore } from "./eval-store.ts";

/** One judged (or unanswerable) query. */
export interface EvalQuery {
  id: string;
  text: string;
  judgments: Judgments;
  category?: string;
  /** Nothing in the store answers it: counted for abstention, not scored. */
  unanswerable?: boolean;
}

/** One store: how to fill it (chunk id → document id) and what to ask it. */
export interface EvalUnit {
  label: string;
  docs: number;
  fill(store: EvalStore): Promise<Map<number, string>>;
  queries: EvalQuery[];
}

/** A whole set. */
export interface EvalSet {
  dataset: "beir" | "locomo" | "vault";
  units: EvalUnit[];
}

/** Documents per ingest call. */
const BATCH = 500;

/** Maps returned chunk ids to document ids (a duplicate keeps the first document's id). */
function mapIds(byChunk: Map<number, string>, ids: readonly (number | undefined)[], docIds: readonly string[]): void {
  ids.forEach((id, k) => {
    if (id !== undefined && !byChunk.has(id)) byChunk.set(id, docIds[k]);
  });
}

/** A BEIR set as one store, through the bulk door (`batch`) or the memory door (`memory`: short notes, SPEC §4.2). */
export function beirUnits(set: BeirSet, door: "batch" | "memory" = "batch", unanswerable: readonly { id: string; text: string }[] = []): EvalSet {
  // An empty title or text is allowed in BEIR, not in /ingest: fall back to the other field, then the id.
  const docs = set.docs.map((d) => ({ id: d.id, title: d.title.trim() || d.id, content: d.text || d.title || d.id }));
  return {
    dataset: "beir",
    units: [{
      label: "corpus", docs: docs.length,
      async fill(store) {
        const byChunk = new Map<number, string>();
        for (let i = 0; i < docs.length; i += BATCH) {
          const part = docs.slice(i, i + BATCH);
          // The memory door keeps a note's own words: a BEIR title that only repeats its id is not sent.
          const ids = door === "memory" && store.ingestMemories
            ? await store.ingestMemories(part.map((d) => (d.title === d.id ? { content: d.content } : { title: d.title, content: d.content })))
            : await store.ingest(part.map((d) => ({ title: d.title, content: d.content })));
          mapIds(byChunk, ids, part.map((d) => d.id));
        }
        return byChunk;
      },
      queries: [
        ...set.queries.map((q) => ({ id: q.id, text: q.text, judgments: q.judgments })),
        ...unanswerable.map((q) => ({ id: q.id, text: q.text, judgments: new Map(), unanswerable: true })),
      ],
    }],
  };
}

/** LoCoMo: one store per conversation; category 5 is unanswerable; questions whose evidence names no turn are left out. */
export function locomoUnits(conversations: readonly LocomoConversation[]): EvalSet {
  return {
    dataset: "locomo",
    units: conversations.map((conv) => ({
      label: conv.sampleId, docs: conv.docs.length,
      async fill(store) {
        const byChunk = new Map<number, string>();
        if (!store.ingestConversation) {
          for (let i = 0; i < conv.docs.length; i += BATCH) {
            const part = conv.docs.slice(i, i + BATCH);
            mapIds(byChunk, await store.ingest(part.map((d) => ({ title: d.title || d.id, content: d.content }))), part.map((d) => d.id));
          }
          return byChunk;
        }
        // Through the conversation door: one call per session, turns in order, the session date kept.
        for (const s of [...new Set(conv.docs.map((d) => d.session))]) {
          const turns = conv.docs.filter((d) => d.session === s);
          const date = turns[0]?.date;
          const ids = await store.ingestConversation({ id: String(s), ...(date ? { date } : {}) }, turns.map((t) => ({ speaker: t.speaker, text: t.text, id: t.id })));
          mapIds(byChunk, ids, turns.map((t) => t.id));
        }
        return byChunk;
      },
      queries: conv.questions
        .filter((q) => q.category === LOCOMO_ADVERSARIAL || q.evidence.length > 0)
        .map((q, i) => ({
          id: `${conv.sampleId}#${i}`, text: q.question, judgments: binaryJudgments(q.evidence), category: String(q.category),
          unanswerable: q.category === LOCOMO_ADVERSARIAL,
        })),
    })),
  };
}

/** A markdown note of a vault. */
export interface VaultNote {
  file: string;
  title: string;
  content: string;
}

/** A vault's question: the note files that answer it. */
export interface VaultQuestion {
  id: string;
  question: string;
  answers: string[];
  kind?: string;
}

/** A vault as one store through the markdown door; each chunk counts as its note; `offtopic` questions are unanswerable. */
export function vaultUnits(label: string, notes: readonly VaultNote[], questions: readonly VaultQuestion[], offtopic: readonly string[] = []): EvalSet {
  return {
    dataset: "vault",
    units: [{
      label, docs: notes.length,
      async fill(store) {
        if (!store.ingestMarkdown) throw new Error("this store has no markdown door");
        const byChunk = new Map<number, string>();
        for (const n of notes) for (const id of await store.ingestMarkdown({ title: n.title, content: n.content })) if (!byChunk.has(id)) byChunk.set(id, n.file);
        return byChunk;
      },
      queries: [
        ...questions.map((q) => ({ id: q.id, text: q.question, judgments: binaryJudgments(q.answers), ...(q.kind ? { category: q.kind } : {}) })),
        ...offtopic.map((text, i) => ({ id: `offtopic-${i}`, text, judgments: new Map(), unanswerable: true })),
      ],
    }],
  };
}
