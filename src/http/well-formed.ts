/**
 * Lone surrogates in JSON bodies (issue 23 §2). A JSON escape such as
 * `"\ud800"` decodes to a string that is not valid Unicode; SQLite stores it
 * as U+FFFD, so the stored text silently differs from what was sent (and its
 * content hash from the one the client computed). Such a body is refused with
 * 400 `invalid_unicode` rather than altered.
 */
import { MemoryError } from "../core/errors.ts";

/** Throws 400 `invalid_unicode` when a JSON text holds a string (value or key) with a lone surrogate. */
export function requireWellFormedJson(text: string): void {
  // Raw UTF-8 cannot carry a lone surrogate (the decoder already replaced it); only `\u` escapes can.
  if (!text.includes("\\u") && !text.includes("\\U")) return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return; // the route answers invalid_json
  }
  const bad = firstIllFormed(parsed, "");
  if (bad !== undefined) throw new MemoryError("invalid_unicode", "text holds a lone surrogate (not valid Unicode)", { field: bad || "(body)" });
}

function firstIllFormed(v: unknown, at: string): string | undefined {
  if (typeof v === "string") return isWellFormed(v) ? undefined : at;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = firstIllFormed(v[i], `${at}[${i}]`);
      if (r !== undefined) return r;
    }
    return undefined;
  }
  if (typeof v === "object" && v !== null) {
    for (const [k, x] of Object.entries(v)) {
      if (!isWellFormed(k)) return at ? `${at}.(key)` : "(key)";
      const r = firstIllFormed(x, at ? `${at}.${k}` : k);
      if (r !== undefined) return r;
    }
  }
  return undefined;
}

const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function isWellFormed(s: string): boolean {
  return !LONE.test(s);
}
