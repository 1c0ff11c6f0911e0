/**
 * Readers for BEIR-layout retrieval sets (SciFact and kin): `corpus.jsonl`
 * (`_id`, `title`, `text`), `queries.jsonl` (`_id`, `text`) and a qrels TSV
 * (`query-id`, `corpus-id`, `score`, with a header line). They take file
 * text, not paths: reading files is the caller's job (scripts, the CLI), so
 * this module runs anywhere.
 */

import { MemoryError } from "../core/errors.ts";
import type { Judgments } from "./metrics.ts";

/** One corpus document. */
export interface BeirDoc {
  id: string;
  title: string;
  text: string;
}

/** One query with its judgments. */
export interface BeirQuery {
  id: string;
  text: string;
  judgments: Judgments;
}

/** A loaded retrieval set: the corpus and the judged queries only. */
export interface BeirSet {
  docs: BeirDoc[];
  queries: BeirQuery[];
}

/** The three files of a BEIR split, as text. */
export interface BeirFiles {
  corpus: string;
  queries: string;
  qrels: string;
}

/** Parses JSON Lines, skipping blank lines; throws a MemoryError naming the line on bad JSON. */
export function parseJsonl(text: string): unknown[] {
  const out: unknown[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line === "") continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      throw new MemoryError("internal_error", `Invalid JSON on line ${i + 1}`, { line: i + 1 });
    }
  }
  return out;
}

/** Parses a qrels TSV into query id → judgments; a first line starting with `query-id` is a header. */
export function parseQrels(text: string): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.trim();
    if (line === "" || (i === 0 && line.startsWith("query-id"))) continue;
    const [qid, docId, score] = line.split(/\t| +/);
    const rel = Number(score);
    if (qid === undefined || docId === undefined || !Number.isFinite(rel)) {
      throw new MemoryError("internal_error", `Invalid qrels line ${i + 1}`, { line: i + 1 });
    }
    let m = qrels.get(qid);
    if (m === undefined) qrels.set(qid, (m = new Map()));
    m.set(docId, rel);
  }
  return qrels;
}

/** Loads a BEIR split; queries without judgments are dropped, judgments keep file order. */
export function loadBeir(files: BeirFiles): BeirSet {
  const docs = parseJsonl(files.corpus).map((row) => {
    const r = row as { _id?: unknown; title?: unknown; text?: unknown };
    return { id: String(r._id), title: typeof r.title === "string" ? r.title : "", text: typeof r.text === "string" ? r.text : "" };
  });
  const texts = new Map<string, string>();
  for (const row of parseJsonl(files.queries)) {
    const r = row as { _id?: unknown; text?: unknown };
    texts.set(String(r._id), typeof r.text === "string" ? r.text : "");
  }
  const queries: BeirQuery[] = [];
  for (const [id, judgments] of parseQrels(files.qrels)) {
    const text = texts.get(id);
    if (text !== undefined) queries.push({ id, text, judgments });
  }
  return { docs, queries };
}
