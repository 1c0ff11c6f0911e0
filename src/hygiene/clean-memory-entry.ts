/**
 * Per-entry hygiene for `POST /ingest/memory` (SPEC §1, §4.2 "Hygiene
 * (clean) is applied per entry"): the reasoning-tag strip plus the skip
 * rule, as one pure decision the ingest door can act on.
 */
import { shouldSkip } from "./skip-patterns.ts";
import { stripReasoning } from "./strip-reasoning.ts";

/** Outcome of cleaning one raw memory entry. */
export type CleanedEntry =
  | { kept: true; text: string }
  | { kept: false; reason: "skip_pattern"; pattern: string }
  | { kept: false; reason: "empty" };

/**
 * Strips reasoning blocks, then applies the skip rule. The skip rule is
 * checked against the raw entry and against the stripped text, so a prefix
 * hidden behind a leading reasoning block still drops the entry. An entry
 * that is blank after stripping is dropped as `empty` (content must be at
 * least one byte, SPEC §4.2). The kept text is not trimmed.
 */
export function cleanMemoryEntry(text: string, patterns: readonly string[]): CleanedEntry {
  const stripped = stripReasoning(text);
  for (const candidate of [text, stripped]) {
    if (!shouldSkip(candidate, patterns)) continue;
    const head = candidate.trimStart();
    const pattern = patterns.find((p) => p !== "" && head.startsWith(p)) as string;
    return { kept: false, reason: "skip_pattern", pattern };
  }
  if (stripped.trim() === "") return { kept: false, reason: "empty" };
  return { kept: true, text: stripped };
}
