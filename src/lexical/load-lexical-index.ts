/**
 * Loads any saved lexical index (`LexicalIndex.toJSON()` output, possibly
 * after a JSON round trip). Answers null — "rebuild from the database" — for
 * an unknown format, kind or version and for malformed data; a stale index
 * is detected by the caller from `changeCounter`.
 */

import { Bm25Index } from "./bm25-index.ts";
import { LEXICAL_FORMAT_VERSION } from "./lexical-index.ts";
import type { LexicalIndex, SavedLexicalIndex } from "./lexical-index.ts";
import { OramaLexicalIndex } from "./orama-lexical-index.ts";

/** Rebuilds the index a `toJSON()` call saved; null when it cannot be loaded. */
export function loadLexicalIndex(data: unknown): LexicalIndex | null {
  if (!isSaved(data) || data.version !== LEXICAL_FORMAT_VERSION) return null;
  try {
    return data.kind === "bm25" ? Bm25Index.fromSaved(data) : OramaLexicalIndex.fromSaved(data);
  } catch {
    return null; // out-of-range params in a tampered file
  }
}

function isSaved(data: unknown): data is SavedLexicalIndex {
  if (typeof data !== "object" || data === null) return false;
  const d = data as Record<string, unknown>;
  return d.format === "cairn-lexical" && (d.kind === "bm25" || d.kind === "orama") &&
    typeof d.version === "number" && typeof d.changeCounter === "number" &&
    typeof d.params === "object" && d.params !== null;
}
