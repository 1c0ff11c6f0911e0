import { gunzipSync } from "node:zlib";
import { gzipRepeated, SNAPSHOT_HEADER } from "/work/wt/deadline/test/hardening/corpus/compression.ts";
const b = gzipRepeated(SNAPSHOT_HEADER, new Uint8Array(1024 * 1024).fill(10), 16);
const out = gunzipSync(b);
console.log(b.length, out.length, out.subarray(0, 40).toString(), out[out.length - 1]);
const s = new Blob([gzipRepeated("", new Uint8Array(1024*1024).fill(32), 3)]).stream().pipeThrough(new DecompressionStream("gzip"));
let n = 0; for await (const c of s) n += c.length; console.log("webstream", n);
