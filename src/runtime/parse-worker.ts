/**
 * Node worker entry of the markdown parse pool (src/runtime/parse-pool.ts): parses each document it is sent with
 * the same `parseMarkdown` the main thread would run and posts the plain result back.
 */
import { parentPort } from "node:worker_threads";
import { parseMarkdown } from "../markdown/parse-markdown.ts";

const port = parentPort!;
port.on("message", (job: { id: number; text: string }) => {
  try {
    port.postMessage({ id: job.id, parsed: parseMarkdown(job.text) });
  } catch (e) {
    port.postMessage({ id: job.id, error: String(e) });
  }
});
port.postMessage({ ready: true });
