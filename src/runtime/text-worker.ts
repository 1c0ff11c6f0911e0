/**
 * Node worker entry of the text pool (src/runtime/text-pool.ts, issue 25): loads the static embedding table
 * itself, reports the embedder id it computes (the table's hash is in it), then answers jobs: the rules screen
 * and the embedding of each text, the vectors in one transferred buffer.
 */
import { readFileSync } from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import { createStaticEmbedder } from "../embed/static-embedder.ts";
import { screen } from "../hygiene/screen.ts";

interface Job { id: number; screen: string[]; embed: string[] }

const port = parentPort!;
try {
  const read = readFileSync((workerData as { tablePath: string }).tablePath);
  const bytes = new Uint8Array(read.buffer, read.byteOffset, read.byteLength);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const embedder = createStaticEmbedder(bytes, Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), true);
  port.on("message", async (job: Job) => {
    try {
      const screens = job.screen.map(screen);
      const vectors = await embedder.embed(job.embed);
      const flat = new Float32Array(vectors.length * embedder.dim);
      vectors.forEach((v, i) => flat.set(v, i * embedder.dim));
      port.postMessage({ id: job.id, screens, vectors: flat }, [flat.buffer]);
    } catch (e) {
      port.postMessage({ id: job.id, error: String(e) });
    }
  });
  port.postMessage({ ready: embedder.id, dim: embedder.dim });
} catch (e) {
  port.postMessage({ failed: String(e) });
}
