/**
 * The markdown parse of a write door (SPEC §4.2, §8): a long document is parsed on the parse worker when the
 * runtime provides one (`ParseWork`, src/runtime/parse-pool.ts), so the event loop keeps answering meanwhile and the
 * request's deadline stops the parse; a short one, or any without a worker, is parsed here. Same parser, same result.
 */
import { isMemoryError } from "../core/errors.ts";
import { parseMarkdown, type ParsedMarkdown } from "../markdown/mod.ts";
import type { WriteContext } from "./context.ts";

/** Documents at least this long (UTF-16 units) go to the parse worker. */
export const OFF_THREAD_PARSE = 32_768;

/** Parses a markdown document for a write. */
export async function parseDocument(ctx: WriteContext, content: string): Promise<ParsedMarkdown> {
  const pool = ctx.parseWork;
  if (pool === undefined || content.length < OFF_THREAD_PARSE) return parseMarkdown(content);
  const deadline = ctx.work?.current();
  const stop = new AbortController();
  deadline?.onExpire(() => stop.abort());
  try {
    return await pool.parseMarkdown(content, stop.signal);
  } catch (e) {
    // The parser refused the document (its code, as in-thread); stopped by the deadline: its error. The worker
    // failed otherwise: the same parse, here.
    if (isMemoryError(e)) throw e;
    deadline?.check();
    return parseMarkdown(content);
  }
}
