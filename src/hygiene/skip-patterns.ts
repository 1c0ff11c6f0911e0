/**
 * The skip rule of `/ingest/memory` (SPEC §1 "Input hygiene"): an entry
 * whose trimmed-start text begins with a configured prefix from
 * `SVC_INGEST_SKIP_PATTERNS` is dropped. Prefix match is case-sensitive;
 * the patterns are split on commas or newlines, blanks are ignored, and
 * unset or empty means no patterns.
 */

/**
 * Parses the raw `SVC_INGEST_SKIP_PATTERNS` value. Each pattern is trimmed
 * at both ends (so `"a, b"` yields `["a", "b"]`); a pattern that is blank
 * after trimming is ignored.
 */
export function parseSkipPatterns(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/** True when the trimmed-start text begins with one of the patterns (case-sensitive). */
export function shouldSkip(text: string, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  const head = text.trimStart();
  return patterns.some((p) => p !== "" && head.startsWith(p));
}
