/**
 * Front matter for `parseMarkdown`: finds the `---` block at the top of a
 * document, parses it with gray-matter (YAML or JSON only: gray-matter's
 * `---js` engine would `eval` the block, so script engines are refused),
 * and converts the result to plain JSON-safe data within a size budget.
 */
import matter from "gray-matter";

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

// `---` (optionally with a language tag, as gray-matter allows), then a
// closing `---` line. A lone `---` with no closing line is a thematic break.
const OPEN = /^\uFEFF?---[ \t]*([A-Za-z]*)[ \t]*\r?$/;
const CLOSE = /^---[ \t]*\r?$/;
const MAX_NODES = 10_000;

const refuse = () => {
  throw new Error("Frontmatter language is not allowed");
};
const SAFE_ENGINES = { javascript: refuse, coffee: refuse };

/** Copies parsed YAML into plain data: dates become ISO strings, aliases are copied, at most `MAX_NODES` values. */
function toPlain(value: unknown, budget: { left: number }): unknown {
  if (--budget.left < 0) throw new Error("Frontmatter is too large");
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso;
  }
  if (Array.isArray(value)) return value.map((v) => toPlain(v, budget));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = toPlain(v, budget);
    return out;
  }
  return value;
}

/** Splits off and parses the front matter block; a document without one has `data: {}` and starts at line 1. */
export function splitFrontmatter(text: string): FrontmatterSplit {
  const lines = text.split("\n");
  if (!OPEN.test(lines[0] ?? "")) return { data: {}, body: text, bodyStartLine: 1 };
  const close = lines.findIndex((l, i) => i > 0 && CLOSE.test(l));
  if (close === -1) return { data: {}, body: text, bodyStartLine: 1 };
  const block = lines.slice(0, close + 1).join("\n").replace(/^\uFEFF/, "");
  const body = lines.slice(close + 1).join("\n");
  const bodyStartLine = close + 2;
  try {
    const parsed = matter(`${block}\n`, { engines: SAFE_ENGINES } as Parameters<typeof matter>[1]);
    const data = toPlain(parsed.data ?? {}, { left: MAX_NODES });
    if (data === null || typeof data !== "object" || Array.isArray(data)) {
      return { data: {}, body, bodyStartLine, error: "Frontmatter is not a mapping" };
    }
    return { data: data as Record<string, unknown>, body, bodyStartLine };
  } catch (e) {
    const message = e instanceof Error && e.message === "Frontmatter is too large" ? e.message : "Frontmatter could not be parsed";
    return { data: {}, body, bodyStartLine, error: message };
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
