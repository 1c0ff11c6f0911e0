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

/** Splits a byte stream at `\n`; throws `RangeError` on a line longer than `max`. */
export async function* byteLines(stream: ReadableStream<Uint8Array>, max = MAX_SNAPSHOT_LINE): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let carry = new Uint8Array(0);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      let buf = value;
      if (carry.length) {
        buf = new Uint8Array(carry.length + value.length);
        buf.set(carry, 0);
        buf.set(value, carry.length);
      }
      let start = 0;
      for (let i = buf.indexOf(10, start); i !== -1; i = buf.indexOf(10, start)) {
        yield buf.subarray(start, i);
        start = i + 1;
      }
      carry = buf.slice(start);
      if (carry.length > max) throw new RangeError("snapshot line too long");
    }
    if (carry.length) yield carry;
  } finally {
    reader.releaseLock();
  }
}
