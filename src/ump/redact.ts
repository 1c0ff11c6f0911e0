/**
 * `consent.redact` (UMP notes "Record"; SPEC §2.8): JSON paths stripped from a
 * record before it is exported or shared across a visibility boundary.
 *
 * Path syntax (a small JSONPath subset, documented in src/ump/README.md): an optional
 * leading `$` or `$.`, then members separated by `.`; `[n]` picks an array
 * element, `[*]` or `.*` every element or member, and `['name']` / `["name"]`
 * a member whose name contains dots or brackets. Examples: `body.structured.token`,
 * `$.provenance.evidence[*].ref`, `relations[0]`, `$['body']['structured']`.
 * Removing an array element splices it out. Paths that match nothing are ignored.
 */

/** One step of a parsed redact path. */
export type PathSegment = { key: string } | { index: number } | { wildcard: true };

const SEGMENT = /^(?:\.\*(?=$|[.[])|\.([^.[\]]+)|\[(\d+)\]|\[\*\]|\['([^']*)'\]|\["([^"]*)"\])/;

/** Parses a redact path; `null` when it is not in the supported syntax. */
export function parseRedactPath(path: string): PathSegment[] | null {
  if (typeof path !== "string" || path === "" || path === "$") return null;
  let rest = path.startsWith("$") ? path.slice(1) : path;
  if (!rest.startsWith(".") && !rest.startsWith("[")) rest = "." + rest;
  const segments: PathSegment[] = [];
  while (rest.length > 0) {
    const m = SEGMENT.exec(rest);
    if (!m) return null;
    if (m[1] !== undefined) segments.push({ key: m[1] });
    else if (m[2] !== undefined) segments.push({ index: Number(m[2]) });
    else if (m[3] !== undefined || m[4] !== undefined) segments.push({ key: (m[3] ?? m[4])! });
    else segments.push({ wildcard: true });
    rest = rest.slice(m[0].length);
  }
  return segments;
}

/**
 * Returns a deep copy of `record` with every path removed (default: the record's
 * own `consent.redact`). When anything was removed the `integrity` block is
 * dropped too, because it no longer matches; re-sign the result if needed.
 * Throws `RangeError` on a path outside the syntax above.
 */
export function applyRedact<T extends object>(record: T, paths?: readonly string[]): T {
  const list = paths ?? ((record as { consent?: { redact?: string[] } }).consent?.redact ?? []);
  const copy = structuredClone(record) as T & { integrity?: unknown };
  let removed = 0;
  for (const path of list) {
    const segments = parseRedactPath(path);
    if (!segments) throw new RangeError(`Unsupported redact path "${path}"`);
    removed += removeAt(copy, segments);
  }
  if (removed > 0) delete copy.integrity;
  return copy;
}

function removeAt(node: unknown, segments: PathSegment[]): number {
  if (typeof node !== "object" || node === null) return 0;
  const [head, ...tail] = segments;
  if (!head) return 0;
  const container = node as Record<string, unknown> & unknown[];
  const keys: (string | number)[] = "wildcard" in head
    ? Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node)
    : "index" in head
      ? Array.isArray(node) && head.index < node.length ? [head.index] : []
      : !Array.isArray(node) && Object.hasOwn(node, head.key) ? [head.key] : [];
  if (tail.length > 0) return keys.reduce<number>((n, k) => n + removeAt(container[k as never], tail), 0);
  if (Array.isArray(node)) {
    // Splice from the end so earlier indices stay valid.
    for (const k of [...keys].sort((a, b) => Number(b) - Number(a))) node.splice(Number(k), 1);
  } else {
    for (const k of keys) delete container[k as string];
  }
  return keys.length;
}
