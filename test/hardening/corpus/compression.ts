/**
 * Compressed request bodies (docs/limits.md). The API takes no
 * `Content-Encoding`: a gzip body is read as the bytes it is and refused as
 * what it is not (never inflated). The snapshot import's expansion bounds
 * (gzip bombs in `POST /domains/{name}/import`) add their cases here in the
 * same format.
 */
import { gzipSync } from "node:zlib";
import type { HostileCase } from "./types.ts";

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
];
