/**
 * The body limit (SPEC §8: 1 MiB, 1 GiB on the domain import sub-route; the
 * messaging gateway uses it with its own bound) and its bare 413 (SPEC §7),
 * answered so a client always reads it (issue 23 §3):
 * an early 413 left the rest of the body unread on a keep-alive connection,
 * so the client saw a reset or its next request failed. The rest of the body
 * is now read and discarded, up to a bound, before the 413 goes out with
 * `Connection: close`; past the bound the connection is closed anyway.
 */
import type { Context, MiddlewareHandler } from "hono";

/** How much of an oversized body is read and discarded before answering (bytes). */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
/** How long the discard may take (ms). */
export const DRAIN_MAX_MS = 5_000;

/** Limits the request body to `maxFor(c)` bytes; over it, a bare 413 after draining. */
export function limitBody(maxFor: (c: Context) => number): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const max = maxFor(c);
    const cl = c.req.header("content-length");
    if (cl !== undefined && c.req.header("transfer-encoding") === undefined) {
      if (Number.parseInt(cl, 10) > max) return await tooLarge(body.getReader());
      return next();
    }
    // No declared length (chunked): count while reading, as Hono's bodyLimit does.
    const reader = body.getReader();
    const parts: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > max) return await tooLarge(reader);
      parts.push(value);
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const p of parts) {
      all.set(p, at);
      at += p.length;
    }
    c.req.raw = new Request(c.req.raw, { body: all });
    return next();
  };
}

async function tooLarge(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Response> {
  await drain(reader);
  // SPEC §7: a bare status, no envelope; the guard's outer layer adds X-Api-Version.
  return new Response(null, { status: 413, headers: { connection: "close" } });
}

async function drain(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  const until = Date.now() + DRAIN_MAX_MS;
  let read = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((r) => (timer = setTimeout(() => r("late"), DRAIN_MAX_MS)));
  try {
    while (read <= DRAIN_MAX_BYTES && Date.now() < until) {
      const step = await Promise.race([reader.read(), late]);
      if (step === "late" || step.done) break;
      read += step.value.length;
    }
  } catch { /* a client that hung up has nothing left to drain */ } finally {
    clearTimeout(timer);
    reader.cancel().catch(() => undefined);
  }
}
