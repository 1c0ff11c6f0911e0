/**
 * The read seam (SPEC §1 "Trust rules", "Input hygiene"): every emitted
 * text field passes through `sanitizeForRead`; storage stays verbatim.
 * The order is fixed: redact (unless the principal holds `pii:read`),
 * strip invisible characters, strip markdown reference definitions, strip
 * control characters, strip hostile elements, strip sentinels.
 *
 * A later step can join fragments into something an earlier step removes
 * (`<scr<|x|>ipt>` becomes `<script>` once the sentinel goes), so the whole
 * ordered pipeline repeats until the text stops changing. Every pass only
 * deletes characters or trades an `@`/digit run for a placeholder without
 * either, so it settles; the result is idempotent, which the review digest
 * over the read-canonical form relies on.
 */
import { stripControl } from "./control-chars.ts";
import { stripHostileElements } from "./hostile-elements.ts";
import { stripInvisible } from "./invisible-chars.ts";
import { stripMarkdownReferences } from "./markdown-references.ts";
import { redactPii } from "./redact-pii.ts";
import { stripSentinels } from "./sentinels.ts";

/** Who is reading: `piiRead` is true when the principal holds the `pii:read` permission. */
export interface ReadOptions {
  piiRead: boolean;
}

const MAX_PASSES = 32; // a guard only: each pass shrinks or settles, see above

function onePass(text: string, opts: ReadOptions): string {
  let t = opts.piiRead ? text : redactPii(text);
  t = stripInvisible(t);
  t = stripMarkdownReferences(t);
  t = stripControl(t);
  t = stripHostileElements(t);
  return stripSentinels(t);
}

/** Transforms one emitted text field in the SPEC §1 order, to a fixed point. */
export function sanitizeForRead(text: string, opts: ReadOptions): string {
  let current = text;
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const next = onePass(current, opts);
    if (next === current) return next;
    current = next;
  }
  return current;
}
