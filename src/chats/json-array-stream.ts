/**
 * Streams the elements of a JSON document's top-level array (or of the
 * array under a top-level object's `conversations` key, a shape some
 * exports use) without holding the document: a byte scanner tracks strings,
 * escapes and nesting, cuts out each element's bytes and parses that
 * element alone. Memory is bounded by the largest element, which is
 * bounded too (`maxElementBytes`): a larger one is skipped whole and
 * reported, never buffered. Structural bytes are ASCII, which never occurs
 * inside a UTF-8 multi-byte sequence, so scanning bytes is exact.
 */
import { MemoryError } from "../core/errors.ts";

/** Budgets of one stream. */
export interface ArrayStreamLimits {
  /** Largest element kept, in bytes (default 64 MiB). */
  maxElementBytes: number;
  /** Deepest nesting inside an element (default 256). */
  maxDepth: number;
}

/** One element: its parsed value, or why it was skipped. */
export type ArrayElement =
  | { ok: true; value: unknown; bytes: number }
  | { ok: false; reason: "too_large" | "too_deep" | "invalid_json"; bytes: number };

const DEFAULTS: ArrayStreamLimits = { maxElementBytes: 64 * 1024 * 1024, maxDepth: 256 };
const Q = 0x22, BS = 0x5c, LB = 0x5b, RB = 0x5d, LC = 0x7b, RC = 0x7d, COMMA = 0x2c, COLON = 0x3a;
const KEY = "conversations";

const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

/** Yields each element of the top-level array of the JSON text in `chunks`, in order. */
export async function* streamJsonArray(chunks: AsyncIterable<Uint8Array>, limits: Partial<ArrayStreamLimits> = {}): AsyncGenerator<ArrayElement> {
  const lim = { ...DEFAULTS, ...limits };
  const decoder = new TextDecoder();
  let depth = 0; // nesting depth, the target array's own depth included
  let target = -1; // depth inside the target array (its elements start at this depth), -1 until found
  let root = 0; // the first structural byte: [ or {
  let inString = false;
  let escape = false;
  // Key detection at the top of a root object.
  let keyBytes: number[] | undefined;
  let lastKey = "";
  let expectKey = false;
  // The element being captured.
  let parts: Uint8Array[] = [];
  let size = 0;
  let capturing = false;
  let dropped = false; // over the size budget: scanning on, bytes thrown away
  let tooDeep = false;
  let bare = false; // the element is a string, number or literal: it ends at a comma or the array's end
  let start = -1; // where the element starts in the current chunk
  let done = false;

  const finish = (chunk: Uint8Array, end: number): ArrayElement => {
    if (start >= 0 && !dropped) parts.push(chunk.subarray(start, end));
    size += end - Math.max(start, 0);
    const bytes = size;
    const out: ArrayElement = dropped || bytes > lim.maxElementBytes ? { ok: false, reason: "too_large", bytes }
      : tooDeep ? { ok: false, reason: "too_deep", bytes }
      : parse(parts, bytes, decoder);
    parts = [];
    size = 0;
    capturing = false;
    dropped = false;
    tooDeep = false;
    bare = false;
    start = -1;
    return out;
  };

  for await (const chunk of chunks) {
    if (done) break;
    let i = 0;
    if (capturing) start = 0;
    const out: ArrayElement[] = [];
    for (; i < chunk.length; i++) {
      if (inString && !keyBytes) {
        // Fast path through a string: jump to its closing quote (memchr), counting the backslashes before a quote.
        if (escape) {
          escape = false;
          continue;
        }
        let j = chunk.indexOf(Q, i);
        while (j >= 0) {
          let n = 0;
          for (let k = j - 1; k >= i && chunk[k] === BS; k--) n++;
          if (n % 2 === 0) break;
          j = chunk.indexOf(Q, j + 1);
        }
        if (j < 0) {
          let n = 0;
          for (let k = chunk.length - 1; k >= i && chunk[k] === BS; k--) n++;
          escape = n % 2 === 1;
          i = chunk.length - 1;
          continue;
        }
        inString = false;
        i = j;
        continue;
      }
      const b = chunk[i];
      if (inString) {
        if (escape) escape = false;
        else if (b === BS) escape = true;
        else if (b === Q) {
          inString = false;
          if (keyBytes) {
            lastKey = keyBytes.length <= KEY.length ? String.fromCharCode(...keyBytes) : "";
            keyBytes = undefined;
          }
        } else if (keyBytes && keyBytes.length <= KEY.length) keyBytes.push(b);
        continue;
      }
      if (isSpace(b)) continue;
      if (root === 0) {
        if (b === 0xef || b === 0xbb || b === 0xbf) continue; // a byte-order mark, possibly split across reads
        if (b !== LB && b !== LC) throw notExport();
        root = b;
        depth = 1;
        if (b === LB) target = 1;
        else expectKey = true;
        continue;
      }
      if (target > 0 && depth === target && !capturing) {
        if (b === RB) { // the target array ends
          done = true;
          break;
        }
        if (b === COMMA) continue;
        capturing = true;
        bare = b !== LB && b !== LC;
        start = i;
      } else if (capturing && bare && depth === target && (b === COMMA || b === RB)) {
        out.push(finish(chunk, i));
        if (b === RB) {
          done = true;
          break;
        }
        continue;
      }
      if (b === Q) {
        inString = true;
        if (target < 0 && depth === 1 && expectKey) keyBytes = [];
        continue;
      }
      if (b === LB || b === LC) {
        if (target < 0 && depth === 1 && b === LB && lastKey === KEY) {
          depth = 2;
          target = 2;
          continue;
        }
        depth++;
        if (capturing && depth - target > lim.maxDepth) tooDeep = true;
        continue;
      }
      if (b === RB || b === RC) {
        depth--;
        if (depth < 1) break; // the root closed without the array: not an export
        if (capturing && depth === target) out.push(finish(chunk, i + 1));
        continue;
      }
      if (target < 0 && depth === 1) {
        if (b === COMMA) expectKey = true;
        else if (b === COLON) expectKey = false;
      }
    }
    if (capturing && start >= 0) {
      if (!dropped) parts.push(chunk.subarray(start, chunk.length));
      size += chunk.length - start;
      if (size > lim.maxElementBytes && !dropped) {
        dropped = true;
        parts = [];
      }
      start = -1;
    }
    for (const e of out) yield e;
  }
  if (!done) {
    if (root === 0) throw notExport();
    if (target < 0) throw notExport();
    throw new MemoryError("export_truncated", "The export ends before its list of conversations does (an incomplete download?)");
  }
}

function parse(parts: Uint8Array[], bytes: number, decoder: TextDecoder): ArrayElement {
  let buf: Uint8Array;
  if (parts.length === 1) buf = parts[0];
  else {
    buf = new Uint8Array(bytes);
    let at = 0;
    for (const p of parts) {
      buf.set(p, at);
      at += p.length;
    }
  }
  try {
    return { ok: true, value: JSON.parse(decoder.decode(buf)), bytes };
  } catch {
    return { ok: false, reason: "invalid_json", bytes };
  }
}

function notExport(): MemoryError {
  return new MemoryError("not_chat_export", "This is not a chat export: expected a JSON list of conversations");
}
