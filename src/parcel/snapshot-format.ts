/**
 * The domain snapshot format (SPEC §4.5; this project's choice, documented
 * in `src/parcel/README.md`): gzip'd NDJSON, one JSON object per line, each
 * tagged `t`. Line 1 is the header `{t: "header", format, version, domain,
 * created_at, schema, embedder}`; then the sections of `SECTIONS` in order
 * (a chunk line carries its vector as base64 of little-endian float32);
 * the last line is the trailer `{t: "end", counts, sha256}`, where `sha256`
 * is the hex SHA-256 of every uncompressed byte before the trailer line.
 * `zcat snapshot | head`, `jq` and `sha256sum` read it.
 */
import { MemoryError } from "../core/errors.ts";
import { base64Decode, base64Encode } from "../ump/base64.ts";

/** The header's format tag. */
export const SNAPSHOT_FORMAT = "cairn-domain-snapshot";
/** The format version this server writes and reads. */
export const SNAPSHOT_VERSION = 1;
/** The longest line an import accepts (a 1,000,000-byte chunk with its vector fits). */
export const MAX_SNAPSHOT_LINE = 4 * 1024 * 1024;

/** The header line. */
export interface SnapshotHeader {
  t: "header";
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  domain: string;
  created_at: string;
  schema: string;
  /** The embedder the vectors were computed with; null when the source stored none. */
  embedder: { id: string; dim: number } | null;
}

/** The trailer line. */
export interface SnapshotTrailer {
  t: "end";
  counts: Record<string, number>;
  sha256: string;
}

/** JSON for a stored value: blobs become `{"$b64": …}` (the only non-JSON type a row holds). */
export function encodeValue(v: unknown): unknown {
  if (v instanceof ArrayBuffer) return { $b64: base64Encode(new Uint8Array(v)) };
  if (v instanceof Uint8Array) return { $b64: base64Encode(v) };
  return v;
}

/** The inverse of `encodeValue`. */
export function decodeValue(v: unknown): unknown {
  if (typeof v === "object" && v !== null && !Array.isArray(v) && typeof (v as { $b64?: unknown }).$b64 === "string") {
    return base64Decode((v as { $b64: string }).$b64) ?? null;
  }
  return v;
}

/** Lowercase hex of bytes. */
export function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** The bounds of one snapshot's gunzipped stream (docs/limits.md "Snapshot import"). */
export interface ExpansionLimits {
  /** Gunzipped bytes at most (`CAIRN_SNAPSHOT_MAX_EXPANDED_MIB`). */
  maxBytes: number;
  /** Lines at most, blank ones included (`CAIRN_SNAPSHOT_MAX_LINES`). */
  maxLines: number;
  /** The longest line (default `MAX_SNAPSHOT_LINE`). */
  maxLine?: number;
}

/** The refusal of a snapshot past its expansion bounds (422, this project's choice: the body itself was within 1 GiB). */
export const tooLarge = (limit: "expanded_bytes" | "lines", max: number): MemoryError =>
  new MemoryError("snapshot_too_large", limit === "lines"
    ? `the snapshot holds more than ${max} lines once gunzipped`
    : `the snapshot expands to more than ${max} bytes once gunzipped`, { limit, max }, 422);

/**
 * Splits a byte stream at `\n`, skipping blank lines, within `limits`: past the byte or line bound it throws
 * `snapshot_too_large`, on a line longer than `maxLine` a `RangeError`. `pace` runs after every read (a deadline
 * check and a yield, SPEC §8). Leaving early (a throw, the consumer stopping) cancels the stream, so the
 * decompression upstream stops too.
 */
export async function* byteLines(stream: ReadableStream<Uint8Array>, limits: ExpansionLimits, pace?: () => Promise<void>): AsyncGenerator<Uint8Array> {
  const max = limits.maxLine ?? MAX_SNAPSHOT_LINE;
  const reader = stream.getReader();
  // The unfinished line, as the pieces it arrived in: each read is scanned once and copied once (a long line
  // arriving in many reads is not re-scanned and re-copied at every read).
  let parts: Uint8Array[] = [];
  let partsLen = 0;
  const joined = (tail: Uint8Array): Uint8Array => {
    const line = new Uint8Array(partsLen + tail.length);
    let at = 0;
    for (const p of parts) {
      line.set(p, at);
      at += p.length;
    }
    line.set(tail, at);
    parts = [];
    partsLen = 0;
    return line;
  };
  let bytes = 0;
  let lines = 0;
  let done = false;
  try {
    for (;;) {
      const step = await reader.read();
      if (step.done) {
        done = true;
        break;
      }
      const value = step.value;
      bytes += value.length;
      if (bytes > limits.maxBytes) throw tooLarge("expanded_bytes", limits.maxBytes);
      let start = 0;
      for (let i = value.indexOf(10); i !== -1; i = value.indexOf(10, start)) {
        if (++lines > limits.maxLines) throw tooLarge("lines", limits.maxLines);
        const line = partsLen > 0 ? joined(value.subarray(start, i)) : value.subarray(start, i);
        if (line.length > max) throw new RangeError("snapshot line too long");
        if (line.length > 0) yield line;
        start = i + 1;
      }
      if (start < value.length) {
        parts.push(value.slice(start));
        partsLen += value.length - start;
        if (partsLen > max) throw new RangeError("snapshot line too long");
      }
      await pace?.();
    }
    if (partsLen > 0) {
      if (++lines > limits.maxLines) throw tooLarge("lines", limits.maxLines);
      yield joined(new Uint8Array(0));
    }
  } finally {
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
