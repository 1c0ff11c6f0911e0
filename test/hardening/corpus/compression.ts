/**
 * Compression bombs and compressed request bodies (docs/limits.md). The API takes no `Content-Encoding`: a gzip
 * body on an ordinary route is read as the bytes it is and refused as what it is not (never inflated). The one route
 * that decompresses what a client sends is `POST /domains/{name}/import`; its bombs are single gzip members whose
 * gunzipped form is vast, built without holding the expansion in memory: a prefix, then one block compressed once
 * and repeated (full-flush deflate blocks concatenate), then the CRC-32 and length of the whole. Every case must be
 * refused with a code, promptly, with nothing left behind (the snapshot tests check the last part).
 */
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";
import type { HostileCase } from "./types.ts";

/** A valid snapshot header line (format 1), the start every bomb shares. */
export const SNAPSHOT_HEADER = `${JSON.stringify({
  t: "header", format: "cairn-domain-snapshot", version: 1, domain: "bomb", created_at: "2026-01-01T00:00:00.000Z", schema: "x", embedder: null,
})}\n`;

/** One gzip member holding `prefix` then `block` repeated `times` times; a few KB per GiB of a uniform block. */
export function gzipRepeated(prefix: string, block: Uint8Array, times: number): Uint8Array {
  const flush = { finishFlush: constants.Z_FULL_FLUSH, level: 9 };
  const head = deflateRawSync(new TextEncoder().encode(prefix), flush);
  // A full flush resets the window, so the same compressed block decodes the same wherever it stands.
  const body = deflateRawSync(block, flush);
  const end = deflateRawSync(new Uint8Array(0)); // the final (empty) block
  let crc = crc32(prefix);
  for (let i = 0; i < times; i++) crc = crc32(block, crc);
  const size = (new TextEncoder().encode(prefix).length + block.length * times) >>> 0;
  const out = new Uint8Array(10 + head.length + body.length * times + end.length + 8);
  out.set([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff], 0);
  let at = 10;
  out.set(head, at);
  at += head.length;
  for (let i = 0; i < times; i++, at += body.length) out.set(body, at);
  out.set(end, at);
  at += end.length;
  const view = new DataView(out.buffer);
  view.setUint32(at, crc >>> 0, true);
  view.setUint32(at + 4, size, true);
  return out;
}

const MiB = 1024 * 1024;
const newlines = new Uint8Array(MiB).fill(10);
const spaces = new Uint8Array(MiB).fill(32);
/** 1 MiB of one valid-looking row repeated, a line per KiB (so the byte cap, not the line cap, is reached first). */
const rows = new TextEncoder().encode(`${JSON.stringify({ t: "entity_chunk", entity_id: 1, chunk_id: 1, subject: 1 }).padEnd(1023)}\n`.repeat(MiB / 1024));

const OCTETS = { "content-type": "application/octet-stream" };
const TOO_LARGE = { status: [422], code: "snapshot_too_large" };

/** `n` bytes of one byte value, gzip'd (about 1,000 : 1). */
const bomb = (n: number, byte = 0x20) => new Uint8Array(gzipSync(Buffer.alloc(n, byte), { level: 9 }));

export const cases: HostileCase[] = [
  {
    name: "/ingest: a gzip body expanding to 64 MiB of spaces, Content-Encoding gzip", method: "POST", path: "/ingest",
    headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: () => bomb(64 * 1024 * 1024),
    expect: { status: [400, 415] },
  },
  {
    name: "/ump/remember: a gzip'd JSON record, Content-Encoding gzip", method: "POST", path: "/ump/remember",
    headers: { "content-type": "application/json", "content-encoding": "gzip" },
    body: () => new Uint8Array(gzipSync(JSON.stringify({ kind: "semantic", body: { text: "zipped" } }))), expect: { status: [400, 415] },
  },
  {
    name: "/ingest?format=ump-md: a gzip'd markdown body", method: "POST", path: "/ingest?format=ump-md",
    headers: { "content-type": "text/markdown", "content-encoding": "gzip" }, body: () => bomb(16 * 1024 * 1024, 0x2d),
    expect: { status: [400, 415] },
  },
  {
    name: "snapshot import: a valid header, then 128 MiB of newlines (line cap)", method: "POST", path: "/domains/bomb-nl-128m/import",
    headers: OCTETS, body: () => gzipRepeated(SNAPSHOT_HEADER, newlines, 128), expect: TOO_LARGE,
  },
  {
    name: "snapshot import: a valid header, then 1 GiB of newlines gzip'd to ~1 MB", method: "POST", path: "/domains/bomb-nl-1g/import",
    headers: OCTETS, body: () => gzipRepeated(SNAPSHOT_HEADER, newlines, 1024), expect: TOO_LARGE, heavy: true,
  },
  {
    name: "snapshot import: a valid header, then 2 GiB of valid-looking rows (byte cap)", method: "POST", path: "/domains/bomb-rows-2g/import",
    headers: OCTETS, body: () => gzipRepeated(SNAPSHOT_HEADER, rows, 2048), expect: TOO_LARGE, heavy: true,
  },
  {
    name: "snapshot import: a valid header, then one 64 MiB line of spaces", method: "POST", path: "/domains/bomb-line/import",
    headers: OCTETS, body: () => gzipRepeated(SNAPSHOT_HEADER, spaces, 64), expect: { status: [400], code: "snapshot_invalid" },
  },
  {
    name: "snapshot import: no header, 256 MiB of newlines", method: "POST", path: "/domains/bomb-bare/import",
    headers: OCTETS, body: () => gzipRepeated("", newlines, 256), expect: TOO_LARGE,
  },
];
