/**
 * The one reader of YAML front matter (STYLE rule 17: bounded work on client
 * input). Every door that takes markdown with a front matter block
 * (`/ingest/markdown`, `/ingest?format=ump-md`, `ingest-dir`, `reconcile`,
 * `cairn ump import`, connectors' markdown) reads it here, with budgets
 * checked before anything expensive:
 * - the block's source text is at most `FRONT_MATTER_LIMITS.sourceChars`;
 * - aliases are bounded while the document is composed (the `yaml` package's
 *   `maxAliasCount`, which weighs an alias by what it expands to), so a
 *   "billion laughs" block stops after a few hundred steps instead of
 *   expanding (js-yaml 3 under gray-matter expanded it in full: 350 bytes
 *   became a 77 MB record, 388 bytes exhausted the heap);
 * - the expanded data is copied into plain JSON-safe values with at most
 *   `nodes` values, `chars` characters of keys and strings and `depth` levels.
 * Over a budget is 400 `frontmatter_too_large` naming the limit. Syntax errors
 * are a `FrontMatterSyntaxError` for the caller to report its own way
 * (`parseMarkdown` keeps the body, the UMP binding refuses the record).
 * Schema: YAML 1.2 core plus timestamps and `<<` merge keys, what js-yaml 3's
 * safe schema read, so existing notes parse as before.
 */
import { isCollection, parseDocument, visit } from "yaml";
import { MemoryError } from "../core/errors.ts";
import { requireText } from "../core/text-rule.ts";

/** The budgets of one front matter block (docs/limits.md "Front matter"). */
export const FRONT_MATTER_LIMITS = {
  /** Characters of the block's YAML source. */
  sourceChars: 64 * 1024,
  /** Alias budget as the `yaml` package counts it (an alias weighs what it expands to). */
  aliases: 100,
  /** Values (scalars, lists, maps) in the expanded data. */
  nodes: 10_000,
  /** Characters of keys and strings in the expanded data (the content limit). */
  chars: 1_000_000,
  /** Nesting levels of lists and maps. */
  depth: 64,
} as const;

/** A front matter block that is not YAML (or not a mapping); the message is safe to show. */
export class FrontMatterSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FrontMatterSyntaxError";
  }
}

/** Options of `readFrontMatter`. */
export interface ReadFrontMatterOptions {
  /** How a YAML timestamp becomes a string (default: full ISO-8601). */
  date?: (d: Date) => string;
  /**
   * Apply the text-field rule to keys and strings, naming `frontmatter.<path>` (default true). The UMP binding
   * turns it off: its blocks are records, checked one by one on import as `records[i].<path>`.
   */
  textRule?: boolean;
}

type Limit = keyof typeof FRONT_MATTER_LIMITS;

function tooLarge(limit: Limit, message: string): MemoryError {
  return new MemoryError("frontmatter_too_large", message, { limit, max: FRONT_MATTER_LIMITS[limit] });
}

/**
 * Parses one front matter block (the YAML between the `---` lines) into plain data within the budgets.
 * Throws `MemoryError("frontmatter_too_large")` over a budget and `FrontMatterSyntaxError` for YAML that does not
 * parse or is not a mapping. An empty block is `{}`.
 */
export function readFrontMatter(yaml: string, opts: ReadFrontMatterOptions = {}): Record<string, unknown> {
  const L = FRONT_MATTER_LIMITS;
  if (yaml.length > L.sourceChars) throw tooLarge("sourceChars", `Front matter is longer than ${L.sourceChars} characters`);
  if (flowDepth(yaml) > L.depth) throw tooLarge("depth", `Front matter nests deeper than ${L.depth} levels`);
  let data: unknown;
  try {
    // uniqueKeys off: the package checks each key against every earlier one (quadratic in a wide mapping); a
    // repeated key keeps its last value.
    const doc = parseDocument(yaml, { schema: "core", customTags: ["timestamp"], merge: true, uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) throw new FrontMatterSyntaxError("Front matter is not valid YAML");
    checkAliasBudget(doc);
    data = doc.toJS({ maxAliasCount: L.aliases });
  } catch (e) {
    if (e instanceof MemoryError || e instanceof FrontMatterSyntaxError) throw e;
    // yaml's alias guard throws a ReferenceError; a block nested past the stack throws a RangeError.
    if (e instanceof ReferenceError && /alias/i.test(e.message) && /exhaustion|disabled/.test(e.message)) {
      throw tooLarge("aliases", `Front matter aliases expand past the budget of ${L.aliases}`);
    }
    if (e instanceof RangeError) throw tooLarge("depth", `Front matter nests deeper than ${L.depth} levels`);
    throw new FrontMatterSyntaxError("Front matter is not valid YAML");
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== "object" || Array.isArray(data) || data instanceof Date) throw new FrontMatterSyntaxError("Front matter is not a mapping");
  const walk: Walk = { nodes: L.nodes, chars: L.chars, rule: opts.textRule ?? true, date: opts.date ?? ((d) => d.toISOString()) };
  return toPlain(data, walk, "frontmatter", 0) as Record<string, unknown>;
}

/** Deepest `[`/`{` flow nesting of the source (quoted text skipped roughly): checked before the parser recurses. */
function flowDepth(yaml: string): number {
  let depth = 0;
  let max = 0;
  let quote = "";
  for (let i = 0; i < yaml.length; i++) {
    const c = yaml[i]!;
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === "[" || c === "{") max = Math.max(max, ++depth);
    else if ((c === "]" || c === "}") && depth > 0) depth--;
    else if (c === "\n") quote = "";
  }
  return max;
}

/**
 * Counts alias nodes and nesting on the composed document before any value is built: the number of aliases is
 * bounded by the source size, so this walk is linear; `toJS` then applies the weighted `maxAliasCount`.
 */
function checkAliasBudget(doc: ReturnType<typeof parseDocument>): void {
  let aliases = 0;
  let depthExceeded = false;
  visit(doc, {
    Alias() {
      if (++aliases > FRONT_MATTER_LIMITS.aliases) throw tooLarge("aliases", `Front matter has more than ${FRONT_MATTER_LIMITS.aliases} aliases`);
    },
    Node(_key, node, path) {
      // path holds the document, then pairs and collections; collections alone count as levels.
      if (isCollection(node) && path.filter((p) => isCollection(p)).length >= FRONT_MATTER_LIMITS.depth) depthExceeded = true;
      if (depthExceeded) return visit.BREAK;
      return undefined;
    },
  });
  if (depthExceeded) throw tooLarge("depth", `Front matter nests deeper than ${FRONT_MATTER_LIMITS.depth} levels`);
}

/**
 * Copies parsed YAML into plain data (aliases are shared references here, so this walk is where they expand). Every
 * key and string meets the text-field rule: a YAML escape such as `"\0"` or `"\ud800"` is refused naming the field.
 */
interface Walk {
  nodes: number;
  chars: number;
  rule: boolean;
  date: (d: Date) => string;
}

function toPlain(value: unknown, budget: Walk, at: string, depth: number): unknown {
  const L = FRONT_MATTER_LIMITS;
  if (--budget.nodes < 0) throw tooLarge("nodes", `Front matter expands past ${L.nodes} values`);
  if (depth > L.depth) throw tooLarge("depth", `Front matter nests deeper than ${L.depth} levels`);
  const text = (s: string, field: string) => {
    budget.chars -= s.length;
    if (budget.chars < 0) throw tooLarge("chars", `Front matter expands past ${L.chars} characters`);
    if (budget.rule) requireText(s, field);
  };
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : budget.date(value);
  if (typeof value === "string") {
    text(value, at);
    return value;
  }
  if (typeof value === "number") return Number.isFinite(value) ? value : String(value);
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Uint8Array) return null;
  if (Array.isArray(value)) return value.map((v, i) => toPlain(v, budget, `${at}[${i}]`, depth + 1));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      text(k, `${at}.(key)`);
      // defineProperty, so a `__proto__` key is a member and never the copy's prototype.
      Object.defineProperty(out, k, { value: toPlain(v, budget, `${at}.${k}`, depth + 1), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value ?? null;
}
