/**
 * The UMP file binding (SPEC §4.2 `format=ump-md` / `format=ump`; UMP notes
 * "File binding"): `*.ump.md`, one front-matter block plus markdown body per
 * record, and `*.ump.json`, a JSON array, NDJSON or the `{ump, records}` envelope.
 * Pure text in, plain data out; file I/O lives with the caller.
 *
 * Markdown layout, per record: a `---` line, one `key: <JSON>` line per top-level
 * member except `body` (JSON is YAML, so any YAML reader can read it; values are
 * written in JCS member order with characters YAML treats as breaks or
 * non-printable escaped), `body: {…}` only when the body has members besides
 * `text`, a `---` line, then `body.text` verbatim followed by one newline. A body
 * line that is exactly `---` (optionally already preceded by backslashes, or
 * followed by `\r`) gets one extra leading backslash, which is also the
 * CommonMark escape, so `---` inside a body never ends the record. The round trip
 * records → markdown → records is lossless for every member, and markdown written
 * here comes back byte for byte. Blocks that are not `key: <JSON>` lines are read
 * as YAML by `readFrontMatter` (hand-written files; YAML timestamps become ISO
 * strings; aliases, size and nesting bounded: 400 `frontmatter_too_large`).
 */

import { MemoryError } from "../core/errors.ts";
import { readFrontMatter } from "../markdown/mod.ts";
import { canonicalize } from "./canonical-json.ts";

/** A record as read from a file: structure not yet validated (run `normaliseRecord`). */
export type FileRecord = Record<string, unknown>;

const ORDER = ["ump", "id", "kind", "title", "scope", "time", "lifecycle", "supersedes", "superseded_by", "relations", "provenance", "consent"];
const DELIMITER = /^---\r?$/;
const ESCAPED_DELIMITER = /^\\+---\r?$/;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Characters YAML 1.1 readers reject as non-printable or treat as line breaks.
const YAML_UNSAFE = /[\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF]/g;
const LINE = /^(?:([A-Za-z_][A-Za-z0-9_]*)|("(?:[^"\\]|\\.)*")):[ \t](.*)$/;

/** Renders records as one `*.ump.md` document. */
export function serialiseUmpMarkdown(records: readonly FileRecord[]): string {
  return records.map(recordToMarkdown).join("");
}

/** Parses a `*.ump.md` document into records (not validated). */
export function parseUmpMarkdown(text: string): FileRecord[] {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop(); // the file's final newline
  let i = 0;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const records: FileRecord[] = [];
  while (i < lines.length) {
    if (!DELIMITER.test(lines[i]!)) throw bad(`Line ${i + 1}: expected a --- front-matter line`);
    const close = nextDelimiter(lines, i + 1);
    if (close === lines.length) throw bad(`Line ${i + 1}: front matter is not closed by ---`);
    const next = nextDelimiter(lines, close + 1);
    const meta = parseFrontMatter(lines.slice(i + 1, close), i + 2);
    const text = lines.slice(close + 1, next).map(unescapeLine).join("\n");
    const body = isObject(meta.body) ? { ...meta.body } : {};
    records.push({ ...meta, body: { ...body, text } });
    i = next;
  }
  return records;
}

/** Renders records as `*.ump.json`: a pretty JSON array, or NDJSON with `{ndjson: true}`. */
export function serialiseUmpJson(records: readonly FileRecord[], opts: { ndjson?: boolean } = {}): string {
  if (opts.ndjson) return records.map((r) => JSON.stringify(r) + "\n").join("");
  return JSON.stringify(records, null, 2) + "\n";
}

/** Parses `*.ump.json`: a JSON array, a single record, the `{ump, records}` export envelope, or NDJSON. */
export function parseUmpJson(text: string): FileRecord[] {
  const source = text.replace(/^\uFEFF/, "");
  let whole: unknown;
  try {
    whole = JSON.parse(source);
  } catch {
    return parseNdjson(source);
  }
  if (Array.isArray(whole)) {
    if (!whole.every(isObject)) throw bad("Every array element must be a record object");
    return whole as FileRecord[];
  }
  if (isObject(whole) && Array.isArray(whole.records) && whole.body === undefined) {
    if (!whole.records.every(isObject)) throw bad("Every element of records must be a record object");
    return whole.records as FileRecord[];
  }
  if (isObject(whole)) return [whole];
  throw bad("Expected a JSON array of records, a record, or NDJSON");
}

function recordToMarkdown(record: FileRecord): string {
  const body = record.body;
  if (!isObject(body) || typeof body.text !== "string") throw bad("Every record needs body.text to be projected to markdown");
  const { text, ...bodyRest } = body;
  const extras = Object.keys(record).filter((k) => !ORDER.includes(k) && k !== "body" && k !== "integrity").sort();
  const members: [string, unknown][] = ORDER.map((k): [string, unknown] => [k, record[k]]);
  if (Object.values(bodyRest).some((v) => v !== undefined)) members.push(["body", bodyRest]);
  for (const k of extras) members.push([k, record[k]]);
  members.push(["integrity", record.integrity]);
  const lines = ["---"];
  for (const [key, value] of members) if (value !== undefined) lines.push(`${renderKey(key)}: ${yamlSafeJson(value)}`);
  lines.push("---", ...text.split("\n").map(escapeLine));
  return lines.join("\n") + "\n";
}

function renderKey(key: string): string {
  return PLAIN_KEY.test(key) ? key : yamlSafeJson(key);
}

function yamlSafeJson(value: unknown): string {
  // Unsafe characters can only occur inside JSON strings, where \uXXXX is an equivalent spelling.
  return canonicalize(value).replace(YAML_UNSAFE, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

function escapeLine(line: string): string {
  return DELIMITER.test(line) || ESCAPED_DELIMITER.test(line) ? "\\" + line : line;
}

function unescapeLine(line: string): string {
  return ESCAPED_DELIMITER.test(line) ? line.slice(1) : line;
}

function nextDelimiter(lines: string[], from: number): number {
  let i = from;
  while (i < lines.length && !DELIMITER.test(lines[i]!)) i++;
  return i;
}

function parseFrontMatter(lines: string[], firstLine: number): FileRecord {
  const meta: FileRecord = {};
  for (const [n, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const m = LINE.exec(line);
    let value: unknown;
    try {
      if (!m) throw new SyntaxError("not key: JSON");
      value = JSON.parse(m[3]!);
    } catch {
      return parseYamlBlock(lines, firstLine + n);
    }
    const key = m[1] ?? (JSON.parse(m[2]!) as string);
    Object.defineProperty(meta, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return meta;
}

function parseYamlBlock(lines: string[], lineNo: number): FileRecord {
  try {
    return readFrontMatter(lines.map((l) => l.replace(/\r$/, "")).join("\n"), { date: (d) => d.toISOString().replace(".000Z", "Z"), textRule: false });
  } catch (e) {
    if (e instanceof MemoryError) throw new MemoryError(e.code, `Line ${lineNo}: ${e.message}`, e.details);
    if (e instanceof Error && /mapping/.test(e.message)) throw bad(`Line ${lineNo}: front matter must be a mapping`);
    throw bad(`Line ${lineNo}: front matter is neither key: JSON lines nor YAML`);
  }
}

function parseNdjson(text: string): FileRecord[] {
  const records: FileRecord[] = [];
  for (const [n, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw bad(`Line ${n + 1}: not valid JSON`);
    }
    if (!isObject(value)) throw bad(`Line ${n + 1}: a record must be a JSON object`);
    records.push(value);
  }
  return records;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function bad(message: string): MemoryError {
  return new MemoryError("invalid_record", message);
}
