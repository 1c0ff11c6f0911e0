/**
 * Tokenisation for the static embedder (SPEC §1: deterministic local
 * embeddings). Text is NFKC-normalised and cut into Unicode word tokens
 * (letters, marks and digits, joined by inner `_`, `-` or apostrophes). The
 * embedder first looks a whole token up lowercased (`e-mail`, `javascript`,
 * `brca1`), and only when that misses splits it as an identifier:
 * `getUserById`, `get_user_by_id` and `get-user-by-id` all give
 * `get user by id`; letter/digit boundaries split too (`utf8` → `utf 8`).
 */

const WORD = /[\p{L}\p{M}\p{N}]+(?:['_\-][\p{L}\p{M}\p{N}]+)*/gu;
const ASCII = /^[\x00-\x7f]*$/;
const SEPARATORS = /['_\-]+/u;
// camelCase, acronym-then-word (`XMLHttp` → `XML Http`), and letter/digit boundaries.
const CASE_OR_DIGIT = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})|(?<=[\p{L}\p{M}])(?=\p{N})|(?<=\p{N})(?=\p{L})/u;

/** Word tokens of `text` in order, original case kept (apostrophe variants folded to `'`). */
export function wordTokens(text: string): string[] {
  // NFKC leaves ASCII unchanged, so skip it for the common all-ASCII text.
  const folded = ASCII.test(text) ? text : text.normalize("NFKC").replace(/[\u2018\u2019\u02BC]/g, "'");
  return folded.match(WORD) ?? [];
}

/** Lowercase parts of an identifier-like token: split on separators, case changes and digit runs. */
export function splitIdentifier(token: string): string[] {
  const parts: string[] = [];
  for (const piece of token.split(SEPARATORS)) {
    for (const part of piece.split(CASE_OR_DIGIT)) {
      if (part !== "") parts.push(part.toLowerCase());
    }
  }
  return parts;
}
