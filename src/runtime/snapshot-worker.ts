/**
 * Node worker entry (src/runtime/platform.ts `loadSnapshotOffThread`): reads the lexical snapshot file,
 * decodes its container and fills the postings, then hands everything to the main thread with the big
 * buffers transferred, not copied. Boot meanwhile reads labels and vectors (docs/benchmarks.md "Embedded server": boot).
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { decodeSnapshotFile, repackSections } from "../lexical/snapshot-file.ts";
import { prebuildLexicalIndex } from "../lexical/prebuild.ts";

try {
  const read = readFileSync((workerData as { path: string }).path);
  // A transfer moves whole ArrayBuffers: make sure the file owns its buffer.
  const bytes = read.byteOffset === 0 && read.buffer.byteLength === read.length ? new Uint8Array(read.buffer) : new Uint8Array(read);
  const data = decodeSnapshotFile(bytes);
  const transfer = prebuildLexicalIndex(data);
  // A server node's cache (issue 20): the lexical sections move to a buffer of their own, so the file's buffer —
  // mostly the vector pages the matrix copies — is freed after boot instead of staying resident beside it.
  const lexical = repackSections(data, "vectors", bytes.buffer);
  parentPort!.postMessage({ data }, [bytes.buffer as ArrayBuffer, ...(lexical ? [lexical] : []), ...transfer]);
} catch (e) {
  parentPort!.postMessage({ error: String(e) });
}
