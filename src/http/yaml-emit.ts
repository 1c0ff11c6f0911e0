/**
 * A small YAML 1.2 emitter for JSON data (the generated OpenAPI document,
 * issue 21): block mappings and sequences, plain scalars where YAML reads
 * them back as the same string, JSON-quoted strings otherwise (a JSON string
 * is a valid YAML double-quoted scalar). No dependency, so `/openapi.yaml`
 * needs nothing beyond the runtime dependencies.
 */

const PLAIN = /^[A-Za-z_/$.][A-Za-z0-9 _./$(){}§,+-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~|\.inf|\.nan)$/i;

function scalar(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "null";
  if (typeof v === "boolean") return String(v);
  const s = String(v);
  return PLAIN.test(s) && !RESERVED.test(s) && !s.endsWith(" ") && !s.includes(" #") && !/: /.test(s) ? s : JSON.stringify(s);
}

function key(k: string): string {
  return /^[A-Za-z0-9_$./{}-]+$/.test(k) && !RESERVED.test(k) && !/^[0-9]/.test(k) ? k : JSON.stringify(k);
}

function isEmpty(v: unknown): boolean {
  return typeof v === "object" && v !== null && (Array.isArray(v) ? v.length === 0 : Object.keys(v).length === 0);
}

function emit(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (typeof item === "object" && item !== null && !isEmpty(item)) {
        const lines: string[] = [];
        emit(item, indent + "  ", lines);
        out.push(`${indent}- ${lines[0]!.slice(indent.length + 2)}`, ...lines.slice(1));
      } else out.push(`${indent}- ${isEmpty(item) ? (Array.isArray(item) ? "[]" : "{}") : scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (val === undefined) continue;
    if (typeof val === "object" && val !== null && !isEmpty(val)) {
      out.push(`${indent}${key(k)}:`);
      emit(val, indent + "  ", out);
    } else out.push(`${indent}${key(k)}: ${isEmpty(val) ? (Array.isArray(val) ? "[]" : "{}") : scalar(val)}`);
  }
}

/** Renders a JSON-compatible object as block YAML. */
export function toYaml(doc: Record<string, unknown>): string {
  const out: string[] = [];
  emit(doc, "", out);
  return out.join("\n") + "\n";
}
