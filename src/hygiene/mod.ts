/**
 * Public API of the hygiene folder (SPEC §1 "Trust rules", "Input
 * hygiene"): the write-side reasoning strip and skip rule, the read seam
 * `sanitizeForRead` with each of its steps, the deterministic injection
 * `screen`, and the `INJECTION_POLICY` decisions. All functions are pure;
 * see `README.md` for the rules, lists and measured figures.
 */
export { cleanMemoryEntry, type CleanedEntry } from "./clean-memory-entry.ts";
export { CONTROL_PATTERN, stripControl } from "./control-chars.ts";
export { findPii, type PiiKind, type PiiSpan } from "./find-pii.ts";
export {
  AUTO_FETCH_ATTRIBUTES,
  FETCHING_CSS,
  REMOVED_TAGS,
  REMOVED_WITH_CONTENT,
  stripHostileElements,
} from "./hostile-elements.ts";
export {
  DEFAULT_INJECTION_POLICY,
  type InjectionPolicy,
  parseInjectionPolicy,
  type QueryAction,
  queryAction,
  type WriteAction,
  writeAction,
} from "./injection-policy.ts";
export { hasInvisible, INVISIBLE_PATTERN, INVISIBLE_RANGES, isInvisible, stripInvisible } from "./invisible-chars.ts";
export { luhnValid } from "./luhn.ts";
export { stripMarkdownReferences } from "./markdown-references.ts";
export { PLACEHOLDERS, redactPii } from "./redact-pii.ts";
export { type ReadOptions, sanitizeForRead } from "./sanitize-for-read.ts";
export {
  FLOOD_MIN,
  QUARANTINE_AT,
  REJECT_AT,
  screen,
  screenHits,
  type ScreenResult,
  SIGNAL_WEIGHTS,
  type Verdict,
  verdictFromHits,
} from "./screen.ts";
export { SENTINEL_LITERALS, SENTINEL_PATTERN, stripSentinels } from "./sentinels.ts";
export { parseSkipPatterns, shouldSkip } from "./skip-patterns.ts";
export { REASONING_TAGS, stripReasoning } from "./strip-reasoning.ts";
