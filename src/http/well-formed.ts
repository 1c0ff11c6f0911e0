/**
 * The text-field rule at the HTTP door (`src/core/text-rule.ts`; issue 23 §2
 * for lone surrogates, extended to NUL): every string of a JSON body (member
 * names included), every query value and every path parameter. A JSON escape
 * such as `"\u0000"` or `"\ud800"` decodes to a string the store cannot keep
 * as sent; the request is refused with 400 naming the field rather than
 * altered. Raw UTF-8 carries neither (JSON forbids raw control characters in
 * strings, and the decoder already replaced a broken sequence), so a body
 * without a `\u` escape is not walked. A batch door whose items answer one by
 * one (SPEC §4.2: one invalid record never aborts the rest) leaves its items
 * to the per-item check of the same rule.
 */
import { MemoryError } from "../core/errors.ts";
import { findTextViolation, textRuleError } from "../core/text-rule.ts";

/**
 * Nesting a JSON body may reach (docs/limits.md "Nesting"). `JSON.parse` reads any depth, but `JSON.stringify` and
 * every recursive walk after it overflow the stack a few thousand levels down (a 500); no body of this API needs more.
 */
export const MAX_JSON_DEPTH = 128;

/** Throws 400 `json_too_deep` when a JSON text nests arrays and objects deeper than `MAX_JSON_DEPTH`; one pass. */
export function requireShallowJson(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_JSON_DEPTH) throw new MemoryError("json_too_deep", `The body nests deeper than ${MAX_JSON_DEPTH} levels`, { max: MAX_JSON_DEPTH });
    } else if (c === 93 || c === 125) depth--;
  }
}

/** Per-item batch doors: the route key and the paths of its items (checked per item by the domain). */
const PER_ITEM: Readonly<Record<string, RegExp>> = {
  "POST /ingest/memory": /^entries\[\d+\]$/,
  // `?format=ump`: the `{ump, records}` envelope or a bare array of records.
  "POST /ingest": /^(records)?\[\d+\]$/,
};

/** Throws the rule's 400 for the first violating string of a JSON text (route key chooses per-item skips). */
export function requireCleanJson(text: string, routeKey?: string): void {
  if (!text.includes("\\u") && !text.includes("\\U")) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // the route answers invalid_json
  }
  const items = routeKey === undefined ? undefined : PER_ITEM[routeKey];
  const v = findTextViolation(parsed, items ? { skip: (p) => items.test(p) } : {});
  if (v !== undefined) throw textRuleError(v);
}

/** Throws the rule's 400 for the first violating query value or path parameter. */
export function requireCleanParams(query: Record<string, string[]>, params: Record<string, string>): void {
  for (const [k, vs] of Object.entries(query)) {
    const v = findTextViolation([k, ...vs]);
    if (v !== undefined) throw textRuleError({ field: `query.${k}`, reason: v.reason });
  }
  for (const [k, p] of Object.entries(params)) {
    const v = findTextViolation(p);
    if (v !== undefined) throw textRuleError({ field: `param.${k}`, reason: v.reason });
  }
}
