/**
 * One worker thread for the markdown parse of large documents (SPEC §8; the port is `ParseWork`,
 * src/ingest/ports.ts): a long document's parse runs off the event loop, so `/health` and the other requests are
 * answered meanwhile, and a request past its deadline stops it by terminating the worker (a fresh one starts with
 * the next job). Same parser, same input, plain data back: the result is the one the main thread would compute.
 * The worker starts with the first large document and stops after a while without one. Under Deno there is none
 * (the parse runs in-thread).
 */
import { MemoryError } from "../core/errors.ts";
import type { ParseWork } from "../ingest/ports.ts";
import type { ParsedMarkdown } from "../markdown/parse-markdown.ts";
import { isDeno } from "./platform.ts";

/** How long a job waits for the worker to start before the caller parses in-thread (ms). */
const START_MS = 10_000;

interface Pending { resolve: (p: ParsedMarkdown) => void; reject: (e: Error) => void }
interface Refusal { code: string; message: string; details?: Record<string, unknown>; status?: number }

/** The pool (Node); undefined under Deno. `idleMs`: the worker stops after this long without a job (default 30 s). */
export async function createParsePool(o: { idleMs?: number } = {}): Promise<ParseWork | undefined> {
  if (isDeno) return undefined;
  const { Worker } = await import("node:worker_threads");
  const fromSource = import.meta.url.endsWith(".ts");
  const url = new URL(`./parse-worker${fromSource ? ".ts" : ".js"}`, import.meta.url);
  // From the TypeScript sources (tsx, vitest) the worker registers tsx itself, as the text pool does.
  const loader = JSON.stringify(["tsx", "esm", "api"].join("/"));
  const spawn = () => fromSource
    ? new Worker(`import(${loader}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`, { eval: true })
    : new Worker(url);
  const idleMs = o.idleMs ?? 30_000;
  // deno-lint-ignore no-explicit-any
  let worker: any;
  let ready: Promise<void> | undefined;
  const pending = new Map<number, Pending>();
  let next = 1;
  let idle: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const stop = (why: string) => {
    const w = worker;
    worker = undefined;
    ready = undefined;
    if (idle !== undefined) clearTimeout(idle);
    for (const p of pending.values()) p.reject(new Error(why));
    pending.clear();
    if (w) void w.terminate();
  };
  const start = (): Promise<void> => {
    if (ready) return ready;
    const w = spawn();
    worker = w;
    w.unref();
    ready = new Promise<void>((resolve, reject) => {
      w.on("message", (m: { ready?: true; id?: number; parsed?: ParsedMarkdown; refused?: Refusal; error?: string }) => {
        if (m.ready) return resolve();
        const p = pending.get(m.id!);
        if (!p) return;
        pending.delete(m.id!);
        if (pending.size === 0) w.unref();
        if (m.refused !== undefined) p.reject(new MemoryError(m.refused.code, m.refused.message, m.refused.details, m.refused.status));
        else if (m.error !== undefined) p.reject(new Error(m.error));
        else p.resolve(m.parsed!);
      });
      w.on("error", (e: unknown) => { reject(e); if (worker === w) stop(String(e)); });
      w.on("exit", () => { reject(new Error("parse worker exited")); if (worker === w) stop("parse worker exited"); });
    });
    return ready;
  };
  return {
    async parseMarkdown(text, signal) {
      if (closed) throw new Error("the parse pool is closed");
      if (signal?.aborted) throw new Error("aborted");
      // Waiting for the worker to start ends early when the request's deadline passes, or after START_MS (then the
      // caller parses in-thread).
      let timer: ReturnType<typeof setTimeout> | undefined;
      const gaveUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("the parse worker did not start")), START_MS);
        signal?.addEventListener("abort", () => reject(new Error("aborted")), { once: true });
      });
      try {
        await Promise.race([start(), gaveUp]);
      } finally {
        clearTimeout(timer);
      }
      gaveUp.catch(() => undefined);
      if (signal?.aborted) throw new Error("aborted");
      const w = worker;
      return await new Promise<ParsedMarkdown>((resolve, reject) => {
        const id = next++;
        // Referenced while a job is out, so a script awaiting it is not ended under it.
        if (pending.size === 0) w.ref();
        pending.set(id, { resolve, reject });
        // A request past its deadline stops its parse: the worker is ended (another starts with the next job).
        signal?.addEventListener("abort", () => { if (pending.has(id) && worker === w) stop("aborted"); }, { once: true });
        if (idle !== undefined) clearTimeout(idle);
        idle = setTimeout(() => { if (pending.size === 0 && worker === w) stop("idle"); }, idleMs);
        idle.unref?.();
        w.postMessage({ id, text });
      });
    },
    close: async () => {
      closed = true;
      stop("closed");
    },
  };
}
