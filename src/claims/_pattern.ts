/**
 * Claim schema `pattern`s on a linear-time engine (docs/limits.md "Patterns";
 * STYLE rule 17): re2js, the JavaScript port of RE2, instead of the
 * backtracking `RegExp`, where `^(a|a)+$` against 40 a's once ran for hours.
 * ECMAScript spellings RE2 lacks (`\uXXXX`, `[^]`, `(?<name>…)`) are
 * translated first; what stays outside RE2's linear-time syntax (lookaround,
 * backreferences) is refused when the schema is created. A match costs at
 * most about (string length × program size) steps, and the checks of one
 * validation share `PATTERN_LIMITS.workBudget` of them: past it the check
 * fails closed (the value is reported as not matching, never accepted unchecked).
 */
import { RE2JS } from "re2js";

/** Budgets of claim schema patterns. */
export const PATTERN_LIMITS = {
  /** Characters of a pattern's source. */
  sourceChars: 256,
  /** Instructions of the compiled program (e.g. `[a-z]{1000}` is about a thousand). */
  programSize: 2_000,
  /** (string length × program size), summed over the pattern checks of one validation. */
  workBudget: 20_000_000,
} as const;

/** A compiled pattern and its program size. */
export interface CompiledPattern {
  re: RE2JS;
  size: number;
}

/** Compiles a pattern, or returns why it cannot run in linear time. */
export function compilePattern(source: string): CompiledPattern | { error: string } {
  if (source.length > PATTERN_LIMITS.sourceChars) return { error: `"pattern" must be at most ${PATTERN_LIMITS.sourceChars} characters` };
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^error parsing regexp: /, "") : "invalid";
    return { error: `"pattern" is not a regular expression the linear-time engine (RE2 syntax: no lookaround, no backreferences) accepts: ${why}`.slice(0, 300) };
  }
  const size = (re.re2Input.prog as { inst: unknown[] }).inst.length;
  if (size > PATTERN_LIMITS.programSize) return { error: `"pattern" compiles to ${size} steps, more than ${PATTERN_LIMITS.programSize}` };
  return { re, size };
}

/** Pattern checks of one validation: compiled once each, sharing one work budget. */
export class PatternChecks {
  #compiled = new Map<string, CompiledPattern | { error: string }>();
  #left: number = PATTERN_LIMITS.workBudget;

  /** True, false, or why the value could not be checked (a failure either way). */
  test(source: string, value: string): true | false | string {
    let c = this.#compiled.get(source);
    if (!c) this.#compiled.set(source, c = compilePattern(source));
    if ("error" in c) return "The pattern is outside the supported syntax";
    this.#left -= Math.max(1, value.length) * c.size;
    if (this.#left < 0) return `Too long to check against the pattern within the work budget (${PATTERN_LIMITS.workBudget} steps per validation)`;
    return c.re.test(value);
  }
}
