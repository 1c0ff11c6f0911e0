/**
 * Strips reference-style markdown definitions (`[label]: url "title"`) at
 * the read seam (SPEC §1 "Input hygiene", step 3 of `sanitizeForRead`), so
 * content reaching a model or channel cannot carry a hidden URL that a
 * renderer fetches through `![x][label]`.
 *
 * Follows the CommonMark shape: up to three spaces of indent, a bracketed
 * label, a colon, a destination (`<...>` or a run of non-space characters,
 * optionally on the next line) and an optional title in `"..."`, `'...'` or
 * `(...)` (optionally on the next line). Footnote definitions (`[^1]: ...`)
 * are prose, not URLs, and stay. Lines inside fenced code blocks stay too.
 */

const DEF_HEAD = /^ {0,3}\[(?!\^)((?:[^\[\]\\]|\\.){1,999})\]:[ \t]*(.*)$/;
const DESTINATION = /^(?:<[^<>\n]*>|[^\s<][^\s]*)/;
const TITLE = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|\((?:[^()\\]|\\.)*\))[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;

/** Reads a definition starting at `lines[i]`; returns how many lines it spans, or 0. */
function definitionLength(lines: string[], i: number): number {
  const head = DEF_HEAD.exec(lines[i]);
  if (!head || head[1].trim() === "") return 0;
  let rest = head[2];
  let used = 1;
  if (rest.trim() === "") {
    // The destination may sit on the next line.
    if (i + 1 >= lines.length) return 0;
    rest = lines[i + 1].trimStart();
    used = 2;
  }
  const dest = DESTINATION.exec(rest);
  if (!dest) return 0;
  const after = rest.slice(dest[0].length);
  if (after.trim() === "") {
    // An optional title may follow on the next line.
    const next = lines[i + used];
    if (next !== undefined && TITLE.test(next.trim())) return used + 1;
    return used;
  }
  if (!/^[ \t]/.test(after)) return 0;
  return TITLE.test(after.trim()) ? used : 0;
}

/** Removes reference-style link definitions (whole lines), keeping fenced code as is. */
export function stripMarkdownReferences(text: string): string {
  if (!text.includes("]:")) return text;
  const lines = text.split("\n");
  const kept: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence !== null) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      kept.push(line);
      continue;
    }
    if (f) {
      fence = f[1];
      kept.push(line);
      continue;
    }
    const n = definitionLength(lines, i);
    if (n === 0) {
      kept.push(line);
      continue;
    }
    i += n - 1;
  }
  return kept.join("\n");
}
