/**
 * The text-field rule (docs/limits.md "Text fields"), one for every door:
 * HTTP bodies, query strings and path parameters, MCP tool arguments, the
 * CLI's files, UMP and markdown imports, connectors, channels and the
 * messaging gateway. A string may not hold
 * - U+0000 (NUL): libSQL stores it but reads text back cut at the NUL, so a
 *   reviewer would approve a shortened text while hidden bytes sit in the row,
 *   and a record's content hash (over the whole text) no longer matches what
 *   is read back, which once made every export of the store fail;
 * - a lone surrogate (U+D800–U+DFFF not in a pair): not Unicode; SQLite would
 *   store U+FFFD, silently changing the text and its hash.
 * Such a value is refused with 400, `details: {field, reason}` naming where it
 * was: `invalid_request` for a NUL, `invalid_unicode` for a lone surrogate
 * (the codes these doors answered before the rule was shared). Nothing is
 * stripped or replaced: storage stays verbatim (SPEC §1 Trust rules).
 */
import { MemoryError } from "./errors.ts";

/** Why a string breaks the rule. */
export type TextFault = "nul" | "lone_surrogate";

/** Where a value breaks the rule: a field path such as `body.text` or `entries[2].content`, and why. */
export interface TextViolation {
  field: string;
  reason: TextFault;
}

/** The first fault in `s`, or undefined when it is clean; one pass over the string. */
export function textFault(s: string): TextFault | undefined {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0) return "nul";
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return "lone_surrogate";
  }
  return undefined;
}

/** The refusal for a violation (400). */
export function textRuleError(v: TextViolation): MemoryError {
  return v.reason === "nul"
    ? new MemoryError("invalid_request", `${v.field} must not contain U+0000 (NUL)`, { field: v.field, reason: v.reason })
    : new MemoryError("invalid_unicode", `${v.field} holds a lone surrogate (not valid Unicode)`, { field: v.field, reason: v.reason });
}

/** Throws the rule's 400 when `s` breaks it. */
export function requireText(s: string, field: string): void {
  const reason = textFault(s);
  if (reason !== undefined) throw textRuleError({ field, reason });
}

/** Options of `findTextViolation`. */
export interface WalkOptions {
  /** Field path prefix of `value` (e.g. `records[3]`); empty for a whole body. */
  at?: string;
  /** Paths whose subtree is left to the caller (e.g. a batch route's items, checked one by one). */
  skip?: (path: string) => boolean;
}

/**
 * The first string (member name or value) anywhere in a JSON-like value that breaks the rule, with its path.
 * Iterative, so a deeply nested body costs no stack; each string is scanned once.
 */
export function findTextViolation(value: unknown, opts: WalkOptions = {}): TextViolation | undefined {
  const stack: [unknown, string][] = [[value, opts.at ?? ""]];
  while (stack.length > 0) {
    const [v, at] = stack.pop()!;
    if (opts.skip?.(at)) continue;
    if (typeof v === "string") {
      const reason = textFault(v);
      if (reason !== undefined) return { field: at || "(body)", reason };
      continue;
    }
    if (typeof v !== "object" || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], `${at}[${i}]`]);
      continue;
    }
    const entries = Object.entries(v);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [k, x] = entries[i]!;
      const reason = textFault(k);
      if (reason !== undefined) return { field: at ? `${at}.(key)` : "(key)", reason };
      stack.push([x, at ? `${at}.${k}` : k]);
    }
  }
  return undefined;
}

/** Throws the rule's 400 for the first violation in `value`. */
export function requireCleanText(value: unknown, opts: WalkOptions = {}): void {
  const v = findTextViolation(value, opts);
  if (v !== undefined) throw textRuleError(v);
}
