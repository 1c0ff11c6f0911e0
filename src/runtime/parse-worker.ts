/**
 * Node worker entry of the markdown parse pool (src/runtime/parse-pool.ts): parses each document it is sent with
 * the same `parseMarkdown` the main thread would run and posts the plain result back, or the parser's refusal.
 */
import { parentPort } from "node:worker_threads";
import { isMemoryError } from "../core/errors.ts";
import { parseMarkdown } from "../markdown/parse-markdown.ts";

const port = parentPort!;
port.on("message", (job: { id: number; text: string }) => {
  try {
    port.postMessage({ id: job.id, parsed: parseMarkdown(job.text) });
  } catch (e) {
    // A refusal (markdown_too_complex, frontmatter_too_large) crosses as data: the request answers its code.
    if (isMemoryError(e)) port.postMessage({ id: job.id, refused: { code: e.code, message: e.message, details: e.details, status: e.status } });
    else port.postMessage({ id: job.id, error: String(e) });
  }
});
port.postMessage({ ready: true });
