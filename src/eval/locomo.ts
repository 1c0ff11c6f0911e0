/**
 * Reader for LoCoMo (Maharana et al., 2024) long-conversation memory data,
 * for retrieval-only scoring: each conversation's dialogue turns become
 * documents (id `D<session>:<turn>`, as the evidence lists cite them), each
 * question keeps its evidence ids and category. Category 5 questions are
 * adversarial (unanswerable from the conversation): recall figures exclude
 * them, abstention calibration uses them. Takes the file's text; no I/O.
 */

import { MemoryError } from "../core/errors.ts";

/** LoCoMo question categories as numbered in the released data. */
export const LOCOMO_CATEGORIES: Readonly<Record<number, string>> = Object.freeze({
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
});

/** The adversarial (unanswerable) category. */
export const LOCOMO_ADVERSARIAL = 5;

/** One dialogue turn as a document. */
export interface LocomoDoc {
  /** Dialogue id, e.g. `D1:3`. */
  id: string;
  /** Session date line when `dateIn` is `title`, otherwise "". */
  title: string;
  content: string;
  session: number;
  /** The session's date as written in the data, e.g. `1:56 pm on 8 May, 2023`. */
  date: string;
  /** Who spoke. */
  speaker: string;
  /** The turn's words, with the shared image's caption appended when `captions` is on. */
  text: string;
}

/** One question. */
export interface LocomoQuestion {
  question: string;
  /** Evidence dialogue ids present in this conversation (normalised, deduplicated). */
  evidence: string[];
  category: number;
  /** The reference answer (or adversarial answer), as text; "" when absent. */
  answer: string;
}

/** One conversation: its turns and its questions. */
export interface LocomoConversation {
  sampleId: string;
  docs: LocomoDoc[];
  questions: LocomoQuestion[];
  /** Evidence ids that name no turn of the conversation (data errors), dropped from `evidence`. */
  unresolvedEvidence: string[];
}

/** How turns are rendered as documents. */
export interface LocomoOptions {
  /** Where the session date goes: the title (default), the start of the content, or nowhere. */
  dateIn?: "title" | "content" | "none";
  /** Prefix the content with `Speaker: ` (default true). */
  speaker?: boolean;
  /** Append the shared image's caption, `[photo: …]` (default true). */
  captions?: boolean;
  /**
   * Append the previous turn of the same session as context, `(in reply to Speaker: …)` (default false).
   * A reply such as "They were scared but we reassured them" only makes sense with the question it
   * answers; `cairn eval` turns this on (see src/eval/README.md for both figures).
   */
  previousTurn?: boolean;
}

/** Parses LoCoMo JSON text (an array of conversations). */
export function loadLocomo(jsonText: string, opts: LocomoOptions = {}): LocomoConversation[] {
  let data: unknown;
  try {
    data = JSON.parse(jsonText);
  } catch {
    throw new MemoryError("internal_error", "LoCoMo data is not valid JSON");
  }
  if (!Array.isArray(data)) throw new MemoryError("internal_error", "LoCoMo data must be an array of conversations");
  return data.map((c, i) => conversation(c as Record<string, unknown>, i, opts));
}

/** Normalises a cited evidence entry into dialogue ids (`D8:6; D9:17` → two ids, `D:11:26` → `D11:26`). */
export function normalizeEvidence(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(/[;,\s]+/)) {
    const m = /^D:?(\d+):(\d+)$/.exec(part.trim());
    if (m) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return out;
}

function conversation(c: Record<string, unknown>, index: number, opts: LocomoOptions): LocomoConversation {
  const conv = (c.conversation ?? {}) as Record<string, unknown>;
  const sampleId = typeof c.sample_id === "string" ? c.sample_id : `conv-${index}`;
  const docs: LocomoDoc[] = [];
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null && Array.isArray(conv[m[0]]))
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  for (const s of sessions) {
    const date = String(conv[`session_${s}_date_time`] ?? "");
    let previous: string | undefined;
    for (const turn of conv[`session_${s}`] as Record<string, unknown>[]) {
      if (typeof turn.dia_id !== "string" || typeof turn.text !== "string") continue;
      const doc = renderTurn(turn, s, date, opts);
      const own = doc.content;
      if (opts.previousTurn && previous !== undefined) doc.content = `${own}\n(in reply to ${previous})`;
      docs.push(doc);
      previous = own;
    }
  }
  const ids = new Set(docs.map((d) => d.id));
  const unresolved: string[] = [];
  const questions: LocomoQuestion[] = [];
  for (const q of (Array.isArray(c.qa) ? c.qa : []) as Record<string, unknown>[]) {
    const evidence: string[] = [];
    for (const raw of Array.isArray(q.evidence) ? q.evidence : []) {
      const norm = normalizeEvidence(String(raw));
      if (norm.length === 0) unresolved.push(String(raw));
      for (const id of norm) {
        if (!ids.has(id)) unresolved.push(id);
        else if (!evidence.includes(id)) evidence.push(id);
      }
    }
    const answer = q.answer ?? q.adversarial_answer ?? "";
    questions.push({ question: String(q.question ?? ""), evidence, category: Number(q.category), answer: String(answer) });
  }
  return { sampleId, docs, questions, unresolvedEvidence: unresolved };
}

function renderTurn(turn: Record<string, unknown>, session: number, date: string, opts: LocomoOptions): LocomoDoc {
  const dateIn = opts.dateIn ?? "title";
  let text = String(turn.text);
  if (opts.captions !== false && typeof turn.blip_caption === "string") text += ` [photo: ${turn.blip_caption}]`;
  const speaker = String(turn.speaker ?? "");
  let content = opts.speaker === false ? text : `${speaker}: ${text}`;
  if (dateIn === "content" && date !== "") content = `${date}. ${content}`;
  return { id: String(turn.dia_id), title: dateIn === "title" ? date : "", content, session, date, speaker, text };
}
