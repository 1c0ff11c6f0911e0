import { gzipRepeated, SNAPSHOT_HEADER } from "../test/hardening/corpus/compression.ts";
import { byteLines } from "../src/parcel/snapshot-format.ts";
const b = gzipRepeated(SNAPSHOT_HEADER, new Uint8Array(1024 * 1024).fill(32), 64);
const s = new Blob([b]).stream().pipeThrough(new DecompressionStream("gzip"));
let sizes = 0, n = 0;
const t0 = performance.now();
try { for await (const l of byteLines(s.pipeThrough(new TransformStream({ transform(c, ctl) { sizes += c.length; n++; ctl.enqueue(c); } })), { maxBytes: 2**30, maxLines: 2e6 })) {} } catch (e) { console.log(String(e)); }
console.log(Math.round(performance.now() - t0), "ms", n, "chunks", sizes, "bytes");
