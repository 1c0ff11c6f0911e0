/**
 * Front matter for `parseMarkdown`: finds the `---` block at the top of a
 * document and reads it with `readFrontMatter` (YAML, or JSON as YAML; a
 * script language tag such as `---js` is refused, never evaluated), within
 * the budgets of `FRONT_MATTER_LIMITS` (over one: 400 `frontmatter_too_large`).
 */
import { MemoryError } from "../core/errors.ts";
import { readFrontMatter } from "./read-front-matter.ts";

/** The front matter block of a document, or none. */
export interface FrontmatterSplit {
  data: Record<string, unknown>;
  /** Text after the closing delimiter. */
  body: string;
  /** 1-based line of the original document where `body` starts. */
  bodyStartLine: number;
  /** Set when a block was found but could not be parsed; `data` is then `{}`. */
  error?: string;
}

// `---` (optionally with a language tag), then a closing `---` line. A lone `---` with no closing line is a
// thematic break.
const OPEN = /^\uFEFF?---[ \t]*([A-Za-z]*)[ \t]*\r?$/;
const CLOSE = /^---[ \t]*\r?$/;
const YAML_LANGUAGES = new Set(["", "yaml", "yml", "json"]);

/** Date-only YAML timestamps stay dates (`2024-01-05`), others become full ISO strings. */
function isoDate(d: Date): string {
  const iso = d.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
}

/**
 * Splits off and parses the front matter block; a document without one has `data: {}` and starts at line 1.
 * Unparseable YAML is reported in `error` (the body is kept); a block over a budget throws `frontmatter_too_large`.
 */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split("\n");
  const open = OPEN.exec(lines[0] ?? "");
  if (!open) return { data: {}, body: text, bodyStartLine: 1 };
  const close = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
  if (close === -1) return { data: {}, body: text, bodyStartLine: 1 };
  const body = lines.slice(close + 1).join("\n");
  const bodyStartLine = close + 2;
  if (!YAML_LANGUAGES.has(open[1]!.toLowerCase())) return { data: {}, body, bodyStartLine, error: "Frontmatter language is not allowed" };
  try {
    const data = readFrontMatter(lines.slice(1, close).map((l) => l.replace(/\r$/, "")).join("\n"), { date: isoDate });
    return { data, body, bodyStartLine };
  } catch (e) {
    if (e instanceof MemoryError) throw e;
    return { data: {}, body, bodyStartLine, error: e instanceof Error && /mapping/.test(e.message) ? "Frontmatter is not a mapping" : "Frontmatter could not be parsed" };
  }
}

/** Reads a tag or alias list from front matter: an array of strings or numbers, or a comma-separated string. */
export function listField(data: Record<string, unknown>, keys: readonly string[], stripHash: boolean): string[] {
  const out: string[] = [];
  for (const key of keys) {
    const raw = data[key];
    const items = Array.isArray(raw) ? raw : typeof raw === "string" ? raw.split(",") : [];
    for (const item of items) {
      if (typeof item !== "string" && typeof item !== "number") continue;
      let v = String(item).trim();
      if (stripHash) v = v.replace(/^#+/, "").trim();
      if (v !== "" && !out.includes(v)) out.push(v);
    }
  }
  return out;
}
